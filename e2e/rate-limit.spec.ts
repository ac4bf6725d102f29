import { randomInt } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { notices, statusText } from '../lib/waitlist/notice'
import { uniqueEmail, waitlistForm } from './waitlist-page'

// This site admits 3 signups a minute per client (playwright.config.ts). A client of its own,
// as the edge would report it, so no other test's posts count against it.
test.use({
  javaScriptEnabled: false,
  extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${randomInt(1, 255)}` },
})

test('past the limit a visitor is asked to try again in a minute, and keeps the address', async ({
  page,
}) => {
  await page.goto('/')
  for (let i = 0; i < 3; i += 1) {
    await waitlistForm(page, 'cta').join(uniqueEmail('limited'))
    await expect(waitlistForm(page, 'cta').status).toContainText(notices.joined.title)
  }
  const address = uniqueEmail('limited')
  await waitlistForm(page, 'cta').join(address)
  const form = waitlistForm(page, 'cta')
  await expect(form.status).toHaveText(statusText(notices.rateLimited))
  await expect(form.email).toHaveValue(address)
})
