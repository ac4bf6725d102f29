import { expect, test } from '@playwright/test'
import { notices, statusText } from '../lib/waitlist/notice'
import { postsSent, toast, uniqueEmail, waitlistForm, type FormName } from './waitlist-page'

for (const name of ['hero', 'cta'] as const satisfies FormName[]) {
  test.describe(`the ${name} form`, () => {
    test.beforeEach(async ({ page }) => {
      await page.goto('/')
    })

    test('joins: busy while it waits, then welcomes and clears the field', async ({ page }) => {
      const form = waitlistForm(page, name)
      // `slow…` addresses are answered 1.5 s late by the stand-in, so the busy state can be seen.
      await form.join(uniqueEmail('slow'))
      await expect(form.button).toHaveText(form.copy.busyLabel)
      await expect(form.button).toBeDisabled()

      await expect(toast(page, notices.joined.title)).toContainText(notices.joined.description)
      await expect(form.status).toHaveText(statusText(notices.joined))
      await expect(form.email).toHaveValue('')
      await expect(form.button).toHaveText(form.copy.submitLabel)
      await expect(form.button).toBeEnabled()
    })

    test('says "already on the list" for a second signup, in any case, and clears the field', async ({
      page,
    }) => {
      const form = waitlistForm(page, name)
      const address = uniqueEmail()
      await form.join(address)
      await expect(toast(page, notices.joined.title)).toBeVisible()

      await form.join(address.toUpperCase())
      await expect(toast(page, notices.alreadyJoined.title)).toContainText(
        notices.alreadyJoined.description,
      )
      await expect(form.status).toHaveText(statusText(notices.alreadyJoined))
      await expect(form.email).toHaveValue('')
    })

    test('shows the generic failure when the backend fails, and keeps the address', async ({
      page,
    }) => {
      const form = waitlistForm(page, name)
      const address = uniqueEmail('fail-502')
      await form.join(address)
      await expect(toast(page, notices.failure.title)).toContainText(notices.failure.description)
      await expect(form.status).toHaveText(statusText(notices.failure))
      await expect(form.email).toHaveValue(address)
      await expect(form.button).toHaveText(form.copy.submitLabel)
    })

    test('shows each of two equal outcomes in a row', async ({ page }) => {
      const form = waitlistForm(page, name)
      const address = uniqueEmail('fail-500')
      await form.join(address)
      await expect(toast(page, notices.failure.title)).toHaveCount(1)
      await form.button.click()
      await expect(toast(page, notices.failure.title)).toHaveCount(2)
      await expect(form.email).toHaveValue(address)
    })
  })
}

test('a backend that never answers: the server gives up and answers with the generic failure', async ({
  page,
}) => {
  await page.goto('/')
  const form = waitlistForm(page, 'hero')
  const answered = page.waitForResponse((response) => response.request().method() === 'POST')
  await form.join(uniqueEmail('fail-hang'))
  await expect(form.button).toHaveText(form.copy.busyLabel)
  // The answer comes from the server's deadline (WAITLIST_STORE_TIMEOUT_MS), not the page's own.
  expect((await answered).status()).toBe(200)
  await expect(toast(page, notices.failure.title)).toBeVisible()
  await expect(form.status).toHaveText(statusText(notices.failure))
  await expect(form.button).toBeEnabled()
})

test('an address the browser accepts but the server refuses gets a clear notice', async ({
  page,
}) => {
  await page.goto('/')
  const form = waitlistForm(page, 'cta')
  // `type="email"` lets `ann@localhost` through; the server wants a dot in the domain.
  await form.join('ann@localhost')
  await expect(toast(page, notices.invalidEmail.title)).toBeVisible()
  await expect(form.status).toHaveText(statusText(notices.invalidEmail))
  await expect(form.email).toHaveValue('ann@localhost')
})

test('the browser itself stops an empty or malformed address before it is sent', async ({
  page,
}) => {
  await page.goto('/')
  const form = waitlistForm(page, 'hero')
  const posted = postsSent(page)
  await form.button.click()
  await form.join('not an address')
  expect(await form.email.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false)
  // A good address goes through: by its answer, any post sent before it has been seen.
  await form.join(uniqueEmail())
  await expect(form.status).toHaveText(statusText(notices.joined))
  expect(posted).toHaveLength(1)
})

test("a toast is set in the page's typeface, not sonner's own", async ({ page }) => {
  await page.goto('/')
  const form = waitlistForm(page, 'hero')
  await form.join(uniqueEmail())
  const shown = toast(page, notices.joined.title)
  await expect(shown).toBeVisible()
  const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily)
  expect(await shown.evaluate((el) => getComputedStyle(el).fontFamily)).toBe(bodyFont)
})
