import { expect, test, type APIRequestContext } from '@playwright/test'
import { seo } from '../lib/site'

/**
 * What crawlers and link previews get from a production build. It is built
 * without NEXT_PUBLIC_SITE_URL or VERCEL_ENV, so absolute URLs name
 * localhost:3000 and the site is indexable.
 */
const SITE = 'http://localhost:3000'

async function fetchOk(request: APIRequestContext, url: string, type: RegExp) {
  const response = await request.get(new URL(url).pathname + new URL(url).search)
  expect(response.status(), url).toBe(200)
  expect(response.headers()['content-type']).toMatch(type)
  return response
}

test('the page says what it is, with absolute links to its share card', async ({
  page,
  request,
}) => {
  const response = await page.goto('/')
  expect(response?.headers()['x-robots-tag']).toBeUndefined()
  await expect(page).toHaveTitle(seo.title)
  const meta = (selector: string) => page.locator(selector).first().getAttribute('content')

  expect(await meta('meta[name="description"]')).toBe(seo.description)
  expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(SITE)
  expect(await page.locator('html').getAttribute('lang')).toBe('en')
  expect(await page.locator('meta[name="robots"]').count()).toBe(0)
  expect(await meta('meta[property="og:url"]')).toBe(SITE)
  expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image')

  for (const selector of ['meta[property="og:image"]', 'meta[name="twitter:image"]']) {
    const url = (await meta(selector)) ?? ''
    expect(url.startsWith(`${SITE}/`), selector).toBe(true)
    await fetchOk(request, url, /^image\/png/)
  }
  expect(await meta('meta[property="og:image:width"]')).toBe('1200')
  expect(await meta('meta[property="og:image:height"]')).toBe('630')

  for (const rel of ['icon', 'apple-touch-icon']) {
    const href = (await page.locator(`link[rel="${rel}"]`).getAttribute('href')) ?? ''
    await fetchOk(request, new URL(href, SITE).toString(), /^image\//)
  }
})

test('the page carries JSON-LD for the organisation and the website', async ({ page }) => {
  await page.goto('/')
  const scripts = await page.locator('script[type="application/ld+json"]').allTextContents()
  expect(scripts).toHaveLength(1)
  const data = JSON.parse(scripts[0]!) as { '@graph': { '@type': string; url: string }[] }
  expect(data['@graph'].map((node) => [node['@type'], node.url])).toEqual([
    ['Organization', `${SITE}/`],
    ['WebSite', `${SITE}/`],
  ])
})

test('robots.txt lets crawlers in and names the sitemap, which lists the page', async ({
  request,
}) => {
  const robots = await (await fetchOk(request, `${SITE}/robots.txt`, /^text\/plain/)).text()
  expect(robots).toContain('Allow: /')
  expect(robots).not.toContain('Disallow: /')
  expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml`)
  const sitemap = await (await fetchOk(request, `${SITE}/sitemap.xml`, /xml/)).text()
  expect(sitemap).toContain(`<loc>${SITE}/</loc>`)
})

test('the not-found page is not indexed and claims no canonical address', async ({ page }) => {
  const response = await page.goto('/no/such/page')
  expect(response?.status()).toBe(404)
  expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex')
  expect(await page.locator('link[rel="canonical"]').count()).toBe(0)
})
