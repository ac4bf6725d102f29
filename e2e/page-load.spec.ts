import { expect, test, type Page } from '@playwright/test'
import { hero } from '../lib/site'
import { notices, statusText } from '../lib/waitlist/notice'
import { postsSent, scriptChunks, toast, uniqueEmail, waitlistForm } from './waitlist-page'

/** The page before its scripts have arrived: styled by its own HTML, and already usable. */

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

test('the page is styled with every script held back', async ({ page }) => {
  const release = await holdScripts(page)
  await page.goto('/', { waitUntil: 'domcontentloaded' })
  const section = page.getByRole('region', { name: `${hero.headline} ${hero.headlineAccent}` })
  await expect(section).toHaveCSS('background-color', 'rgb(11, 6, 22)')
  release()
})

test('a form sent before the scripts arrive posts the plain way, and the answer says how it went', async ({
  page,
}) => {
  const release = await holdScripts(page)
  const sent = postsSent(page)
  await page.goto('/', { waitUntil: 'domcontentloaded' })
  const address = uniqueEmail()
  await waitlistForm(page, 'hero').join(address)

  const form = waitlistForm(page, 'hero')
  await expect(form.status).toHaveText(statusText(notices.joined))
  await expect(form.email).toHaveValue('')
  expect(sent).toHaveLength(1)
  release()

  // The page the post answered with hydrates (its toaster mounts once it has), and the next
  // signup goes through React: a toast says so.
  await expect(page.getByRole('region', { name: /^Notifications/ })).toBeAttached()
  await form.join(address)
  await expect(form.status).toHaveText(statusText(notices.alreadyJoined))
  await expect(toast(page, notices.alreadyJoined.title)).toBeVisible()
  expect(sent).toHaveLength(2)
})

test('when the scripts never come, both forms still sign up', async ({ page }) => {
  await page.route(scriptChunks, (route) => route.abort('connectionreset'))
  await page.goto('/')
  for (const name of ['cta', 'hero'] as const) {
    const address = uniqueEmail()
    await waitlistForm(page, name).join(address)
    await expect(waitlistForm(page, name).status).toHaveText(statusText(notices.joined))
  }
})
