import { expect, test, type Locator, type Page } from '@playwright/test'
import { notices, statusText } from '../lib/waitlist/notice'
import { uniqueEmail, waitlistForm } from './waitlist-page'

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
  await page.goto('/')
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
  await page.goto('/')
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

test('a form can be sent with the keyboard alone', async ({ page }) => {
  await page.goto('/')
  const form = waitlistForm(page, 'cta')
  await form.email.focus()
  await page.keyboard.type(uniqueEmail())
  await page.keyboard.press('Enter')
  await expect(form.status).toHaveText(statusText(notices.joined))
})

test('outcomes are announced once, by the status text in the form; the toast only shows', async ({
  page,
}) => {
  await page.goto('/')
  const form = waitlistForm(page, 'hero')
  // Live regions are only read out when they change, so they must be there, empty, beforehand.
  await expect(form.status).toBeAttached()
  await expect(form.status).toHaveText('')
  const toaster = page.getByRole('region', { name: /^Notifications/ })
  await expect(toaster).toBeAttached()

  await form.join(uniqueEmail('fail-502'))
  await expect(toaster.locator('[data-sonner-toast]')).toContainText(notices.failure.title)
  await expect(form.status).toHaveText(statusText(notices.failure))
  await expect(toaster).toHaveAttribute('aria-live', 'off')
})
