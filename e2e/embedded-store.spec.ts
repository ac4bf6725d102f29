import { expect, test } from '@playwright/test'
import { notices } from '../lib/waitlist/notice'
import { toast, uniqueEmail, waitlistForm } from './waitlist-page'

test('with no configuration, signups go to the embedded store', async ({ page }) => {
  await page.goto('/')
  const form = waitlistForm(page, 'hero')
  const address = uniqueEmail()
  await form.join(address)
  await expect(toast(page, notices.joined.title)).toBeVisible()
  await form.join(address)
  await expect(toast(page, notices.alreadyJoined.title)).toBeVisible()
})
