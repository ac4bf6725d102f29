import { expect, test, type Page } from '@playwright/test'
import { notices, statusText } from '../lib/waitlist/notice'
import { scriptSources } from '../scripts/check-size'
import { scriptChunks, toast, uniqueEmail, waitlistForm } from './waitlist-page'

/**
 * sonner is fetched after the page has painted, not with it. These hold its
 * chunk back to see what a visitor sees when an outcome beats it.
 */
const isSonner = (body: string) => body.includes('data-sonner-toaster')

/** Holds back the script that carries sonner until `release` is called; every other script passes. */
async function holdSonner(page: Page) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let requested = false
  await page.route(scriptChunks, async (route) => {
    const response = await route.fetch()
    const body = await response.text()
    if (isSonner(body)) {
      requested = true
      await released
    }
    await route.fulfill({ response, body })
  })
  return { release, requested: () => requested }
}

/** sonner's live region for its toasts, there from the moment its Toaster mounts. */
const toaster = (page: Page) => page.getByRole('region', { name: /^Notifications/ })

test('the page loads no toast code before it paints, and mounts the toaster when idle', async ({
  page,
  request,
}) => {
  const html = await (await request.get('/')).text()
  const scripts = scriptSources(html)
  expect(scripts.length).toBeGreaterThan(0)
  for (const src of scripts)
    expect(isSonner(await (await request.get(src)).text()), src).toBe(false)

  await page.goto('/')
  // No click, no focus: the browser's first idle moment is enough.
  await expect(toaster(page)).toBeAttached()
})

test('focusing a form loads the toaster even if the browser is never idle', async ({ page }) => {
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0
  })
  await page.goto('/')
  const form = waitlistForm(page, 'cta')
  await page.waitForLoadState('networkidle')
  await expect(toaster(page)).not.toBeAttached()
  await form.email.focus()
  await expect(toaster(page)).toBeAttached()
})

test('an outcome that comes before sonner has loaded shows in the page at once, and as a toast once it has', async ({
  page,
}) => {
  const sonner = await holdSonner(page)
  await page.goto('/')
  const form = waitlistForm(page, 'hero')
  await form.join(uniqueEmail())

  await expect(form.status).toHaveText(statusText(notices.joined))
  await expect(form.email).toHaveValue('')
  expect(sonner.requested()).toBe(true)
  await expect(toaster(page)).not.toBeAttached()

  sonner.release()
  await expect(toast(page, notices.joined.title)).toContainText(notices.joined.description)
  await expect(toast(page, notices.joined.title)).toHaveCount(1)
})

test('when fetching sonner fails, the next outcome fetches it again and shows its toast', async ({
  page,
}) => {
  // Turbopack's runtime tries a failed chunk once more by itself, 200–600 ms
  // later, so the first load fails twice before the page gives up on it.
  let failing = true
  let failures = 0
  await page.route(scriptChunks, async (route) => {
    const response = await route.fetch()
    const body = await response.text()
    if (isSonner(body) && failing) {
      failures += 1
      return route.abort('connectionreset')
    }
    return route.fulfill({ response, body })
  })
  await page.goto('/')
  await expect.poll(() => failures).toBe(2)
  await expect(toaster(page)).not.toBeAttached()
  failing = false

  const form = waitlistForm(page, 'cta')
  await form.join(uniqueEmail())
  await expect(form.status).toHaveText(statusText(notices.joined))
  await expect(toast(page, notices.joined.title)).toContainText(notices.joined.description)
})
