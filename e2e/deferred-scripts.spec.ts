import { expect, test, type Page } from '@playwright/test'
import { statusText } from '../components/waitlist/status-text'
import { HYDRATED_ATTRIBUTE } from '../components/waitlist/hydration-mark'
import { notices } from '../lib/waitlist/notice'
import { deferredScripts } from '../scripts/defer-scripts'
import { postsSent, scriptChunks, toast, uniqueEmail, waitlistForm } from './waitlist-page'

/**
 * The page asks for its scripts after its first frame (scripts/defer-scripts.ts),
 * and a form sent before React has hydrated it waits for it
 * (components/waitlist/early-submit-holder.tsx).
 */
const scriptPath = /^\/_next\/static\/chunks\/.+\.js$/
const isScript = (url: string) => scriptPath.test(new URL(url).pathname)

/** Resolves once every form on the page is hydrated. */
const hydrated = (page: Page) =>
  expect(page.locator(`form:not([${HYDRATED_ATTRIBUTE}])`)).toHaveCount(0, { timeout: 10_000 })

/** Holds back every script until `release` is called. */
async function holdScripts(page: Page) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(scriptChunks, async (route) => {
    await released
    await route.continue()
  })
  return release
}

test('the page names no script to fetch before its first frame, and its loader names them all', async ({
  request,
}) => {
  const html = await (await request.get('/')).text()
  expect(html).not.toMatch(/<script\b[^>]*\basync\b/)
  expect(html).not.toMatch(/<link\b[^>]*\bas="script"/)
  const listed = deferredScripts(html)
  expect(listed.length).toBeGreaterThan(0)
  for (const src of listed) expect((await request.get(src)).status(), src).toBe(200)
})

test('the scripts are fetched after the first frame of the parsed page, each once, and hydrate it', async ({
  page,
}) => {
  await page.addInitScript(() => {
    // Notes when the page's first animation frame callback (the loader's) runs.
    const requestFrame = window.requestAnimationFrame.bind(window)
    window.requestAnimationFrame = (callback) =>
      requestFrame((time) => {
        const page = window as unknown as { firstFrameAt?: number }
        page.firstFrameAt ??= performance.now()
        callback(time)
      })
  })
  const requested: string[] = []
  page.on('request', (request) => {
    if (isScript(request.url())) requested.push(new URL(request.url()).pathname)
  })
  await page.goto('/')
  await hydrated(page)

  const { firstFrameAt, parsedAt, starts } = await page.evaluate((pattern) => {
    const script = new RegExp(pattern)
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
    return {
      firstFrameAt: (window as unknown as { firstFrameAt?: number }).firstFrameAt ?? 0,
      parsedAt: navigation?.domContentLoadedEventStart ?? Infinity,
      starts: performance
        .getEntriesByType('resource')
        .filter((entry) => script.test(new URL(entry.name).pathname))
        .map((entry) => ({ name: entry.name, start: entry.startTime })),
    }
  }, scriptPath.source)
  expect(firstFrameAt).toBeGreaterThanOrEqual(parsedAt)
  expect(starts.length).toBeGreaterThan(0)
  for (const { name, start } of starts) expect(start, name).toBeGreaterThanOrEqual(firstFrameAt)
  expect(requested.length).toBeGreaterThan(0)
  expect(new Set(requested).size).toBe(requested.length)
})

test('a page that paints no frame, as in a background tab, still fetches its scripts', async ({
  page,
}) => {
  await page.addInitScript(() => {
    window.requestAnimationFrame = () => 0
  })
  await page.goto('/')
  await hydrated(page)
})

test('a form sent before hydration waits for it, then goes through the hydrated form', async ({
  page,
}) => {
  const release = await holdScripts(page)
  const sent = postsSent(page)
  await page.goto('/', { waitUntil: 'domcontentloaded' })
  const form = waitlistForm(page, 'hero')
  await form.join(uniqueEmail())

  // Held: no plain post, no reload, the address still in the field.
  await page.waitForTimeout(500)
  expect(sent).toEqual([])
  await expect(form.status).toHaveText('')

  release()
  await expect(form.status).toHaveText(statusText(notices.joined))
  await expect(toast(page, notices.joined.title)).toContainText(notices.joined.description)
  await expect(form.email).toHaveValue('')
  expect(sent).toHaveLength(1)
})

test('when the scripts never come, a form sent early posts the plain way and says so', async ({
  page,
}) => {
  await page.route(scriptChunks, (route) => route.abort('connectionreset'))
  const sent = postsSent(page)
  await page.goto('/', { waitUntil: 'domcontentloaded' })
  const form = waitlistForm(page, 'cta')
  await form.join(uniqueEmail())

  await expect(form.status).toHaveText(statusText(notices.joined), {
    timeout: 10_000,
  })
  expect(sent).toHaveLength(1)
})
