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

/** Sends every form its address, and waits until each says `notice`, in its status and a toast. */
async function everyFormSays(page: Page, notice: Notice, addresses: readonly string[]) {
  const shown = await toastsShown(page, notice.title)
  for (const [i, name] of forms.entries()) {
    const form = waitlistForm(page, name)
    await form.join(addresses[i]!)
    await expect(form.status).toHaveText(statusText(notice))
  }
  await expect.poll(shown).toBe(forms.length)
}

for (const width of [375, 1440]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } })

    test('the landing page has no axe violations idle, with every form busy, and in each outcome', async ({
      page,
    }) => {
      await page.goto('/')
      await expectNoViolations(page)

      const addresses = forms.map(() => uniqueEmail())
      await test.step('every form busy, then welcomed', async () => {
        const release = await holdSignups(page)
        const shown = await toastsShown(page, notices.joined.title)
        for (const [i, name] of forms.entries()) {
          const form = waitlistForm(page, name)
          await form.join(addresses[i]!)
          await expect(form.button).toHaveText(form.copy.busyLabel)
          await expect(form.button).toBeDisabled()
        }
        await expectNoViolations(page)
        release()
        for (const name of forms)
          await expect(waitlistForm(page, name).status).toHaveText(statusText(notices.joined))
        await expect.poll(shown).toBe(forms.length)
        await expectNoViolations(page)
      })
      for (const [notice, sent] of [
        [notices.already_joined, addresses],
        [notices.error, forms.map(() => uniqueEmail('fail-502'))],
      ] as const) {
        await test.step(`"${notice.title}" in every form`, async () => {
          await everyFormSays(page, notice, sent)
          await expectNoViolations(page)
        })
      }
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
