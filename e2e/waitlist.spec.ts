import { randomUUID } from 'node:crypto'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { notices, statusText } from '../lib/site'
import {
  forms,
  holdSignups,
  postsSent,
  toast,
  toastsShown,
  uniqueEmail,
  waitlistForm,
} from './waitlist-page'

const said = {
  joined: statusText(notices.joined),
  already: statusText(notices.already_joined),
  failed: statusText(notices.error),
}

test.beforeEach(async ({ page }) => {
  await page.goto('/')
})

for (const name of forms) {
  test.describe(`the ${name} form`, () => {
    test('joins: busy while it waits, then welcomes and clears the field', async ({ page }) => {
      const form = waitlistForm(page, name)
      const sent = postsSent(page)
      const release = await holdSignups(page)
      await form.join(uniqueEmail())
      await expect(form.button).toHaveText(form.copy.busyLabel)
      await expect(form.button).toBeDisabled()
      // Playwright waits for a disabled button; a visitor's press does not.
      await form.button.click({ force: true })
      release()

      await expect(toast(page, notices.joined.title)).toContainText(notices.joined.description)
      await expect(form.status).toHaveText(said.joined)
      await expect(form.email).toHaveValue('')
      await expect(form.button).toHaveText(form.copy.submitLabel)
      await expect(form.button).toBeEnabled()
      // The press while busy sent nothing.
      expect(sent).toHaveLength(1)
    })

    test('says "already on the list" for a second signup, in any case, and clears the field', async ({
      page,
    }) => {
      const form = waitlistForm(page, name)
      const address = uniqueEmail()
      await form.join(address)
      await expect(form.status).toHaveText(said.joined)

      await form.join(address.toUpperCase())
      await expect(toast(page, notices.already_joined.title)).toContainText(
        notices.already_joined.description,
      )
      await expect(form.status).toHaveText(said.already)
      await expect(form.email).toHaveValue('')
    })

    test('shows the generic failure when the backend fails, and keeps the address', async ({
      page,
    }) => {
      const form = waitlistForm(page, name)
      const address = uniqueEmail('fail-502')
      await form.join(address)
      await expect(toast(page, notices.error.title)).toContainText(notices.error.description)
      await expect(form.status).toHaveText(said.failed)
      await expect(form.email).toHaveValue(address)
      await expect(form.button).toHaveText(form.copy.submitLabel)
    })

    test('shows each of two equal outcomes in a row', async ({ page }) => {
      const form = waitlistForm(page, name)
      const address = uniqueEmail('fail-500')
      const shown = await toastsShown(page, notices.error.title)
      await form.join(address)
      await expect.poll(shown).toBe(1)
      await form.button.click()
      await expect.poll(shown).toBe(2)
      await expect(form.email).toHaveValue(address)
    })
  })
}

test('the busy label never changes the width of the field beside the button', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  const form = waitlistForm(page, 'cta')
  await form.email.scrollIntoViewIfNeeded()
  const idle = (await form.email.boundingBox())?.width
  const release = await holdSignups(page)
  await form.join(uniqueEmail())
  await expect(form.button).toHaveText(form.copy.busyLabel)
  expect((await form.email.boundingBox())?.width).toBe(idle)
  release()
  await expect(form.status).toHaveText(said.joined)
})

test('a post started with the mouse keeps the focus in its form, busy and after', async ({
  page,
}) => {
  const form = waitlistForm(page, 'hero')
  const focusInForm = () => form.form.evaluate((el) => el.contains(document.activeElement))
  const release = await holdSignups(page)
  await form.join(uniqueEmail())
  await expect(form.button).toHaveText(form.copy.busyLabel)
  expect(await focusInForm()).toBe(true)
  release()
  await expect(form.status).toHaveText(said.joined)
  expect(await focusInForm()).toBe(true)
})

test("a form's outcome belongs to its last post: an edit, an empty press or a new post clears it", async ({
  page,
}) => {
  const form = waitlistForm(page, 'hero')
  const sent = postsSent(page)
  await test.step('typing after a welcome', async () => {
    await form.join(uniqueEmail())
    await expect(form.status).toHaveText(said.joined)
    await form.email.pressSequentially('a')
    await expect(form.status).toHaveText('')
  })
  await test.step('an empty press, stopped by the browser', async () => {
    await form.join(uniqueEmail())
    await expect(form.status).toHaveText(said.joined)
    await form.button.click()
    await expect(form.status).toHaveText('')
    expect(sent).toHaveLength(2)
  })
  await test.step('a new post of the same address, while it is on its way', async () => {
    await form.join(uniqueEmail('fail-502'))
    await expect(form.status).toHaveText(said.failed)
    const release = await holdSignups(page)
    await form.button.click()
    await expect(form.button).toHaveText(form.copy.busyLabel)
    await expect(form.status).toHaveText('')
    release()
    await expect(form.status).toHaveText(said.failed)
  })
  await test.step('editing the address kept after a failure', async () => {
    await form.email.press('Backspace')
    await expect(form.status).toHaveText('')
  })
})

test('the browser itself stops an empty or malformed address before it is sent', async ({
  page,
}) => {
  const form = waitlistForm(page, 'hero')
  const sent = postsSent(page)
  await form.button.click()
  expect(await form.email.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true)
  await form.join('not an address')
  expect(await form.email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true)
  // A good address goes through: by its answer, any post sent before it has been seen.
  await form.join(uniqueEmail())
  await expect(form.status).toHaveText(said.joined)
  expect(sent).toHaveLength(1)
})

test('addresses that <input type=email> accepts are welcomed', async ({ page }) => {
  const form = waitlistForm(page, 'cta')
  const tag = randomUUID().slice(0, 8)
  for (const address of [`first!last-${tag}@example.com`, `ann-${tag}@examplehost`]) {
    await form.join(address)
    await expect(form.status).toHaveText(said.joined)
  }
})

test.describe('the honeypot', () => {
  const honeypot = (page: Page): Locator =>
    waitlistForm(page, 'hero').form.locator('input[name="comments"]')

  test('is out of sight and out of reach, and left alone by password managers', async ({
    page,
  }) => {
    const field = honeypot(page)
    await expect(field).toHaveAttribute('tabindex', '-1')
    await expect(field).toHaveAttribute('autocomplete', 'off')
    await expect(field).toHaveAttribute('data-1p-ignore')
    await expect(field).toHaveAttribute('data-lpignore', 'true')
    await expect(field).not.toBeInViewport()
  })
})

test("a toast is set in the page's typeface, not sonner's own", async ({ page }) => {
  await waitlistForm(page, 'hero').join(uniqueEmail())
  const shown = toast(page, notices.joined.title)
  await expect(shown).toBeVisible()
  const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily)
  expect(await shown.evaluate((el) => getComputedStyle(el).fontFamily)).toBe(bodyFont)
})

test.describe('the keyboard', () => {
  /** What a focus indicator changes: the outline, or the box shadow Tailwind's rings are drawn with. */
  const focusStyle = (locator: Locator) =>
    locator.evaluate((el) => {
      const style = getComputedStyle(el)
      return `${style.outlineStyle} ${style.outlineWidth} | ${style.boxShadow}`
    })

  async function tabTo(page: Page, target: Locator) {
    await page.keyboard.press('Tab')
    await expect(target).toBeFocused()
  }

  test('the skip link is the first stop, shows itself, and moves focus to the main content', async ({
    page,
  }) => {
    const skip = page.getByRole('link', { name: 'Skip to main content' })
    await tabTo(page, skip)
    const box = await skip.boundingBox()
    expect(box?.width).toBeGreaterThan(40)
    expect(box?.height).toBeGreaterThan(20)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/#main$/)
    await expect(page.getByRole('main')).toBeFocused()
    await tabTo(page, waitlistForm(page, 'hero').email)
  })

  test('every control is reached in reading order, each with a visible focus ring', async ({
    page,
  }) => {
    const hero = waitlistForm(page, 'hero')
    const cta = waitlistForm(page, 'cta')
    const stops = [
      page.getByRole('link', { name: 'Skip to main content' }),
      hero.email,
      hero.button,
      cta.email,
      cta.button,
    ]
    const unfocused = await Promise.all(stops.map(focusStyle))
    for (const [i, stop] of stops.entries()) {
      await tabTo(page, stop)
      expect(await focusStyle(stop)).not.toBe(unfocused[i])
    }
  })

  test('a form can be sent with Enter', async ({ page }) => {
    const form = waitlistForm(page, 'cta')
    await form.email.focus()
    await page.keyboard.type(uniqueEmail())
    await page.keyboard.press('Enter')
    await expect(form.status).toHaveText(said.joined)
  })
})
