import { expect, test } from '@playwright/test'
import { features, hero, notFound, site } from '../lib/site'
import { revealOpacities } from './waitlist-page'

const revealOpacity = (el: Element) =>
  Number(getComputedStyle(el.closest('[data-reveal]') ?? el).opacity)

test('shows the copy: forms, stats, the six features and the footer year', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `${hero.headline} ${hero.headlineAccent}`,
  )
  await expect(page.getByRole('heading', { name: 'Get VIP Early Access' })).toBeVisible()
  await expect(page.getByPlaceholder('Enter your email address', { exact: true })).toHaveAttribute(
    'type',
    'email',
  )
  await expect(page.getByRole('button', { name: 'Join the Revolution', exact: true })).toBeVisible()
  for (const stat of hero.stats)
    await expect(page.getByText(stat.value, { exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: features.title })).toBeAttached()
  for (const card of features.cards)
    await expect(page.getByRole('heading', { name: card.title, exact: true })).toBeAttached()
  await expect(page.getByPlaceholder('Your email address', { exact: true })).toBeAttached()
  await expect(page.getByRole('button', { name: 'Get VIP Access', exact: true })).toBeAttached()
  await expect(page.getByRole('contentinfo')).toContainText(String(site.footerYear))
})

test('on a 375 x 812 phone the hero form, its field and its button, is on the first screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 })
  await page.goto('/')
  await expect(page.getByPlaceholder('Enter your email address', { exact: true })).toBeInViewport({
    ratio: 1,
  })
  await expect(
    page.getByRole('button', { name: 'Join the Revolution', exact: true }),
  ).toBeInViewport({ ratio: 1 })
})

test('sections below the fold reveal when scrolled to; the hero never waits for script', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 700 })
  await page.goto('/')
  expect(
    await page.getByRole('heading', { level: 1 }).evaluate((el) => el.closest('[data-reveal]')),
  ).toBeNull()
  const heading = page.getByRole('heading', { name: features.title })
  expect(await heading.evaluate(revealOpacity)).toBeLessThan(1)
  await heading.scrollIntoViewIfNeeded()
  await expect.poll(() => heading.evaluate(revealOpacity)).toBe(1)
})

test('with reduced motion requested, everything is shown without scrolling', async ({
  browser,
}) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' })
  const page = await context.newPage()
  await page.goto('/')
  const opacities = await revealOpacities(page)
  expect(opacities.length).toBeGreaterThan(0)
  expect(opacities.every((o) => o === 1)).toBe(true)
  await context.close()
})

test('an unknown route shows the not-found page, logs the 404, and links home', async ({
  page,
}) => {
  const logged: string[] = []
  page.on('console', (message) => logged.push(message.text()))
  const response = await page.goto('/no/such/page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: notFound.code })).toBeVisible()
  await expect(page.getByText(notFound.message)).toBeVisible()
  await expect
    .poll(() => logged)
    .toContain('404 Error: User attempted to access non-existent route: /no/such/page')
  await page.getByRole('link', { name: notFound.homeLink }).click()
  await expect(page).toHaveURL('/')
})

for (const path of ['/', '/no/such/page']) {
  test(`${path} carries the security headers`, async ({ request }) => {
    const headers = (await request.get(path)).headers()
    const csp = Object.fromEntries(
      (headers['content-security-policy'] ?? '').split('; ').map((d) => [d.split(' ')[0], d]),
    )
    expect(csp['default-src']).toBe("default-src 'self'")
    expect(csp['script-src']).toBe("script-src 'self' 'unsafe-inline'")
    expect(csp['connect-src']).toBe("connect-src 'self'")
    for (const directive of [
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(Object.values(csp)).toContain(directive)
    }
    expect(csp['style-src'] && csp['img-src'] && csp['font-src']).toBeTruthy()
    expect(
      Number(/max-age=(\d+)/.exec(headers['strict-transport-security'] ?? '')?.[1]),
    ).toBeGreaterThanOrEqual(31_536_000)
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['x-powered-by']).toBeUndefined()
  })
}

test('the page runs under its policy: nothing is refused while it loads and hydrates', async ({
  page,
}) => {
  const refused: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
  })
  await page.goto('/')
  await page.locator('footer').scrollIntoViewIfNeeded()
  await expect(page.locator('footer [data-reveal="shown"]')).toBeVisible()
  expect(refused).toEqual([])
})
