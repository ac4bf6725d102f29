import { expect, test, type Locator, type Page } from '@playwright/test'
import { notices, statusText } from '../lib/site'
import { forms, holdSignups, postsSent, toast, uniqueEmail, waitlistForm } from './waitlist-page'

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
    test('busy, as wide and focused while it posts; then welcomes and clears, knows the address in any case, keeps it on a failure', async ({
      page,
    }) => {
      const form = waitlistForm(page, name)
      const sent = postsSent(page)
      const focusInForm = () => form.form.evaluate((el) => el.contains(document.activeElement))
      await form.email.scrollIntoViewIfNeeded()
      const idleWidth = (await form.email.boundingBox())?.width
      const release = await holdSignups(page)
      const address = uniqueEmail()
      await form.join(address)
      await expect(form.button).toHaveText(form.copy.busyLabel)
      await expect(form.button).toBeDisabled()
      // The busy label never changes the width of the field beside the button.
      expect((await form.email.boundingBox())?.width).toBe(idleWidth)
      // A post started with the mouse keeps the focus in its form.
      expect(await focusInForm()).toBe(true)
      // Playwright waits for a disabled button; a visitor's press does not.
      await form.button.click({ force: true })
      release()

      await expect(toast(page, notices.joined.title)).toContainText(notices.joined.description)
      await expect(form.status).toHaveText(said.joined)
      await expect(form.email).toHaveValue('')
      await expect(form.button).toHaveText(form.copy.submitLabel)
      await expect(form.button).toBeEnabled()
      expect(await focusInForm()).toBe(true)
      // The press while busy sent nothing.
      expect(sent).toHaveLength(1)

      // Sent with Enter, as a keyboard sends it.
      await form.email.fill(address.toUpperCase())
      await form.email.press('Enter')
      await expect(toast(page, notices.already_joined.title)).toContainText(
        notices.already_joined.description,
      )
      await expect(form.status).toHaveText(said.already)
      await expect(form.email).toHaveValue('')

      const failing = uniqueEmail('fail-502')
      await form.join(failing)
      await expect(toast(page, notices.error.title)).toContainText(notices.error.description)
      await expect(form.status).toHaveText(said.failed)
      await expect(form.email).toHaveValue(failing)
      await expect(form.button).toHaveText(form.copy.submitLabel)
    })
  })
}

test("a form's outcome belongs to its last post: an edit, a press the browser stops or a new post clears it", async ({
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
  await test.step('an empty press, stopped by the browser, as a malformed address is', async () => {
    await form.join(uniqueEmail())
    await expect(form.status).toHaveText(said.joined)
    await form.button.click()
    await expect(form.status).toHaveText('')
    await form.join('not an address')
    expect(await form.email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true)
  })
  await test.step('a new post of the same address, while it is on its way', async () => {
    await form.join(uniqueEmail('fail-502'))
    await expect(form.status).toHaveText(said.failed)
    // By its answer, any post sent before it has been seen: the empty and the malformed sent none.
    expect(sent).toHaveLength(3)
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

test('the honeypot is out of sight and out of reach, and left alone by password managers', async ({
  page,
}) => {
  const field = waitlistForm(page, 'hero').form.locator('input[name="comments"]')
  await expect(field).toHaveAttribute('tabindex', '-1')
  await expect(field).toHaveAttribute('autocomplete', 'off')
  await expect(field).toHaveAttribute('data-1p-ignore')
  await expect(field).toHaveAttribute('data-lpignore', 'true')
  await expect(field).not.toBeInViewport()
})

test("a toast is set in the page's typeface, not sonner's own", async ({ page }) => {
  await waitlistForm(page, 'hero').join(uniqueEmail())
  const shown = toast(page, notices.joined.title)
  await expect(shown).toBeVisible()
  const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily)
  await expect(shown).toHaveCSS('font-family', bodyFont)
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

  test('the skip link, the first stop, shows itself and moves focus to the main content, where every control follows in reading order, each with a visible focus ring', async ({
    page,
  }) => {
    const skip = page.getByRole('link', { name: 'Skip to main content' })
    const hero = waitlistForm(page, 'hero')
    const cta = waitlistForm(page, 'cta')
    const controls = [hero.email, hero.button, cta.email, cta.button]
    const unfocused = await Promise.all([skip, ...controls].map(focusStyle))
    await tabTo(page, skip)
    expect(await focusStyle(skip)).not.toBe(unfocused[0])
    const box = await skip.boundingBox()
    expect(box?.width).toBeGreaterThan(40)
    expect(box?.height).toBeGreaterThan(20)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/#main$/)
    await expect(page.getByRole('main')).toBeFocused()
    for (const [i, control] of controls.entries()) {
      await tabTo(page, control)
      expect(await focusStyle(control)).not.toBe(unfocused[i + 1])
    }
  })
})
