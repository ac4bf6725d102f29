import { expect, test } from '@playwright/test'
import { notices, statusText } from '../lib/site'
import { scriptSources } from '../scripts/check-size'
import { COMPILE_HINT } from '../scripts/compile-hints'
import {
  holdScripts,
  postsSent,
  scriptChunks,
  toast,
  toaster,
  uniqueEmail,
  waitlistForm,
} from './waitlist-page'

// sonner loads only once a visitor turns to a form, and the page works before any script: these
// hold scripts back to see what a visitor sees when an outcome beats them.
const isSonner = (body: string) => body.includes('data-sonner-toaster')

// A script still held, or on its way, when a test ends is no failure of the page.
test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }))

test('the page loads no toast code with its load, only once a visitor turns to a form; what it loads at start asks to be compiled as it downloads, the toast code does not', async ({
  page,
  request,
}) => {
  const scripts = scriptSources(await (await request.get('/')).text())
  expect(scripts.length).toBeGreaterThan(0)
  for (const src of scripts)
    expect(isSonner(await (await request.get(src)).text()), src).toBe(false)

  // Each script by when it was asked for, read once it has come.
  const loaded: Promise<{ url: string; sonner: boolean; hinted: boolean }>[] = []
  page.on('request', (request) => {
    if (request.resourceType() !== 'script') return
    const read = (body: string) => ({
      url: request.url(),
      sonner: isSonner(body),
      hinted: body.startsWith(COMPILE_HINT),
    })
    loaded.push(request.response().then((response) => response!.text().then(read)))
  })
  await page.goto('/')
  // A section hidden below the fold: the page has hydrated and run its effects, the toaster's among them.
  await expect(page.locator('[data-reveal="hidden"]').first()).toBeAttached()
  // Scrolled before that, no section would be below the fold to hide and reveal.
  await page.mouse.wheel(0, 2000)
  await expect(page.locator('[data-reveal="shown"]').first()).toBeAttached()
  // Loaded, hydrated, scrolled: nothing has asked for a toast yet.
  const atStart = await Promise.all(loaded.splice(0))
  expect(atStart.length).toBeGreaterThan(5)
  expect(atStart.filter((script) => script.sonner || !script.hinted)).toEqual([])
  await expect(toaster(page)).not.toBeAttached()

  await waitlistForm(page, 'cta').email.focus()
  await expect(toaster(page)).toBeAttached()
  const later = await Promise.all(loaded)
  expect(later.filter((script) => script.sonner)).not.toEqual([])
  expect(later.filter((script) => script.hinted)).toEqual([])
})

test('an outcome that comes before sonner has loaded shows in the page at once, and as a toast once it has', async ({
  page,
}) => {
  const sonner = await holdScripts(page, isSonner)
  await page.goto('/')
  const form = waitlistForm(page, 'hero')
  await form.join(uniqueEmail())

  await expect(form.status).toHaveText(statusText(notices.joined))
  await expect(form.email).toHaveValue('')
  await expect.poll(sonner.requested).toBe(true)
  await expect(toaster(page)).not.toBeAttached()

  sonner.release()
  await expect(toast(page, notices.joined.title)).toContainText(notices.joined.description)
  await expect(toast(page, notices.joined.title)).toHaveCount(1)
})

test('when fetching sonner fails, the next post fetches it again and shows its toast', async ({
  page,
}) => {
  // Turbopack's runtime tries a failed chunk once more by itself, a little later,
  // so the first load fails twice before the page gives up on it.
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
  const form = waitlistForm(page, 'cta')
  await form.email.focus()
  await expect.poll(() => failures).toBe(2)
  await expect(toaster(page)).not.toBeAttached()
  failing = false

  await form.join(uniqueEmail())
  await expect(form.status).toHaveText(statusText(notices.joined))
  await expect(toast(page, notices.joined.title)).toContainText(notices.joined.description)
})

test('a form sent before the scripts arrive posts the plain way, and the answer says how it went', async ({
  page,
}) => {
  const scripts = await holdScripts(page)
  const sent = postsSent(page)
  await page.goto('/', { waitUntil: 'domcontentloaded' })
  const form = waitlistForm(page, 'hero')
  const address = uniqueEmail()
  await form.join(address)
  await expect(form.status).toHaveText(statusText(notices.joined))
  await expect(form.email).toHaveValue('')
  expect(sent).toHaveLength(1)
  scripts.release()

  // The page the post answered with hydrates, and the next signup goes through React: a toast says so.
  await page.waitForFunction(() =>
    Object.keys(document.querySelector('form') ?? {}).some((key) => key.startsWith('__react')),
  )
  await form.join(address)
  await expect(form.status).toHaveText(statusText(notices.already_joined))
  await expect(toast(page, notices.already_joined.title)).toBeVisible()
  expect(sent).toHaveLength(2)
})
