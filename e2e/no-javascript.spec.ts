import { expect, test } from '@playwright/test'
import { features, notices, statusText } from '../lib/site'
import { forms, otherThan, revealOpacities, uniqueEmail, waitlistForm } from './waitlist-page'

/** Runs in the `no-javascript` project: the browser's own post, answered with a whole page. */

test('without JavaScript every section is shown', async ({ page }) => {
  await page.goto('/')
  const opacities = await revealOpacities(page)
  expect(opacities.length).toBeGreaterThanOrEqual(3)
  expect(opacities.every((o) => o === 1)).toBe(true)
  await expect(page.getByRole('heading', { name: features.title })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Get VIP Access' })).toBeVisible()
})

for (const name of forms) {
  test(`without JavaScript the ${name} form says each outcome in the page, keeping the address on a failure`, async ({
    page,
  }) => {
    await page.goto('/')
    const address = uniqueEmail()
    const form = waitlistForm(page, name)
    await form.join(address)
    await expect(form.status).toHaveText(statusText(notices.joined))
    await expect(form.email).toHaveValue('')
    await expect(waitlistForm(page, otherThan(name)).status).toHaveText('')

    await form.join(address)
    await expect(form.status).toHaveText(statusText(notices.already_joined))
    await expect(form.email).toHaveValue('')

    const failing = uniqueEmail('fail-502')
    await form.join(failing)
    await expect(form.status).toHaveText(statusText(notices.error))
    await expect(form.email).toHaveValue(failing)
  })
}

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]) {
  test(`without JavaScript the page comes back with the closing form's outcome in view, ${viewport.width} px wide`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport)
    await page.goto('/')
    const form = waitlistForm(page, 'cta')
    await form.join(uniqueEmail())
    await expect(form.status).toHaveText(statusText(notices.joined))
    await expect(form.email).toBeFocused()
    await expect(form.status).toBeInViewport({ ratio: 1 })
    // Every time: wherever the browser's scroll to the focused field stops, its scroll margin carries the status line along.
    const [field, margin] = await form.email.evaluate((el) => [
      el.getBoundingClientRect().bottom,
      parseFloat(getComputedStyle(el).scrollMarginBottom),
    ])
    const status = (await form.status.boundingBox())!
    expect(field + margin).toBeGreaterThanOrEqual(status.y + status.height)
  })
}
