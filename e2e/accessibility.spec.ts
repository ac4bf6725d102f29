import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { notices, statusText, type Notice } from '../lib/site'
import { forms, holdSignups, toastsShown, uniqueEmail, waitlistForm } from './waitlist-page'

// Reduced motion makes every reveal and toast settle at once, so axe reads final colours, never a
// frame of a fade. Motion itself is covered in landing.spec.ts.
test.use({ reducedMotion: 'reduce' })

/** Every axe rule (WCAG 2.2 A and AA, and axe's best practices), on the whole page as it stands. */
async function expectNoViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  const summary = violations.map(({ id, help, nodes }) => ({
    id,
    help,
    targets: nodes.map((node) => node.target.join(' ')),
  }))
  expect(summary).toEqual([])
}

/** Submits every form with an address each, and waits until each says `notice`. */
async function everyFormSays(page: Page, notice: Notice, address: () => string) {
  const shown = await toastsShown(page, notice.title)
  for (const name of forms) {
    const form = waitlistForm(page, name)
    await form.join(address())
    await expect(form.status).toHaveText(statusText(notice))
  }
  await expect.poll(shown).toBe(forms.length)
}

for (const width of [375, 1440]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } })

    test('the landing page, idle, has no axe violations', async ({ page }) => {
      await page.goto('/')
      await expectNoViolations(page)
    })

    test('the landing page, every form busy, has no axe violations', async ({ page }) => {
      await page.goto('/')
      const release = await holdSignups(page)
      const shown = await toastsShown(page, notices.joined.title)
      for (const name of forms) {
        const form = waitlistForm(page, name)
        await form.join(uniqueEmail())
        await expect(form.button).toHaveText(form.copy.busyLabel)
        await expect(form.button).toBeDisabled()
      }
      await expectNoViolations(page)
      release()
      await expect.poll(shown).toBe(forms.length)
    })

    test('"joined" in every form has no axe violations', async ({ page }) => {
      await page.goto('/')
      await everyFormSays(page, notices.joined, () => uniqueEmail())
      await expectNoViolations(page)
    })

    test('"already on the list" in every form has no axe violations', async ({ page }) => {
      await page.goto('/')
      const address = uniqueEmail()
      const hero = waitlistForm(page, 'hero')
      await hero.join(address)
      await expect(hero.status).toHaveText(statusText(notices.joined))
      await everyFormSays(page, notices.already_joined, () => address)
      await expectNoViolations(page)
    })

    test('"something went wrong" in every form has no axe violations', async ({ page }) => {
      await page.goto('/')
      await everyFormSays(page, notices.error, () => uniqueEmail('fail-502'))
      await expectNoViolations(page)
    })

    test('the not-found page has no axe violations', async ({ page }) => {
      await page.goto('/no/such/page')
      await expect(page.getByRole('heading', { name: '404' })).toBeVisible()
      await expectNoViolations(page)
    })
  })
}

test('with reduced motion the busy spinner stands still; without, it turns', async ({
  browser,
}) => {
  for (const reducedMotion of ['reduce', 'no-preference'] as const) {
    const context = await browser.newContext({ reducedMotion })
    const page = await context.newPage()
    await page.goto('/')
    const release = await holdSignups(page)
    const form = waitlistForm(page, 'hero')
    await form.join(uniqueEmail())
    await expect(form.button).toHaveText(form.copy.busyLabel)
    const animation = await form.button
      .locator('svg')
      .evaluate((el) => getComputedStyle(el).animationName)
    expect(animation === 'none').toBe(reducedMotion === 'reduce')
    release()
    await context.close()
  }
})
