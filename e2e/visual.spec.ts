import { expect, test, type Page } from '@playwright/test'
import { notFound } from '../lib/site'
import { revealOpacities } from './waitlist-page'

// The page pixel for pixel: speed work must not change its look. A deliberate change updates the
// baselines (`npx playwright test e2e/visual.spec.ts --update-snapshots`) in a commit of its own.
const widths = [375, 768, 1440]

/** Waits for the scripts to hide the footer, scrolls each section in until shown, then back up. */
async function revealEverything(page: Page): Promise<void> {
  await expect(page.locator('footer [data-reveal]')).toHaveAttribute('data-reveal', 'hidden')
  for (const section of await page.locator('[data-reveal]').all()) {
    await section.scrollIntoViewIfNeeded()
    await expect(section).not.toHaveAttribute('data-reveal', 'hidden')
  }
  await expect.poll(async () => (await revealOpacities(page)).every((o) => o === 1)).toBe(true)
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
}

for (const width of widths) {
  test(`the landing page looks as it did, ${width} px wide`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/')
    await revealEverything(page)
    await expect(page).toHaveScreenshot(`home-${width}.png`, { fullPage: true })
  })

  test(`the not-found page looks as it did, ${width} px wide`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/no-such-page')
    await expect(page.getByText(notFound.message)).toBeVisible()
    await expect(page).toHaveScreenshot(`not-found-${width}.png`, { fullPage: true })
  })
}
