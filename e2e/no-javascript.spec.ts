import { expect, test } from '@playwright/test'
import { features } from '../lib/site'
import { notices, statusText } from '../lib/waitlist/notice'
import { revealOpacities, uniqueEmail, waitlistForm } from './waitlist-page'

test('without JavaScript every section is shown', async ({ page }) => {
  await page.goto('/')
  const opacities = await revealOpacities(page)
  expect(opacities.length).toBeGreaterThanOrEqual(3)
  expect(opacities.every((o) => o === 1)).toBe(true)
  await expect(page.getByRole('heading', { name: features.title })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Get VIP Access' })).toBeVisible()
})

for (const name of ['hero', 'cta'] as const) {
  test(`without JavaScript the ${name} form signs up and says so in the page`, async ({ page }) => {
    await page.goto('/')
    const address = uniqueEmail()
    await waitlistForm(page, name).join(address)
    const form = waitlistForm(page, name)
    await expect(form.status).toHaveText(statusText(notices.joined))
    await expect(form.email).toHaveValue('')
    // The answer is rendered for this post, not prerendered, and carries its stylesheet the same way.
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0)
    await expect(page.locator('style[data-precedence="next"]')).toHaveCount(1)

    await form.join(address)
    await expect(waitlistForm(page, name).status).toContainText(notices.alreadyJoined.title)
  })
}

test('without JavaScript a failure keeps the address in the field', async ({ page }) => {
  await page.goto('/')
  const address = uniqueEmail('fail-502')
  await waitlistForm(page, 'hero').join(address)
  const form = waitlistForm(page, 'hero')
  await expect(form.status).toContainText(notices.failure.title)
  await expect(form.email).toHaveValue(address)
})
