import { expect, test } from '@playwright/test'
import { postSignup, readSignupForm } from '../tests/support/form-post'
import { notices } from '../lib/waitlist/notice'
import { toast, uniqueEmail, waitlistForm } from './waitlist-page'

for (const path of ['/', '/no/such/page']) {
  test(`${path} carries the security headers and no X-Powered-By`, async ({ request }) => {
    const response = await request.get(path)
    const headers = response.headers()
    const csp = headers['content-security-policy'] ?? ''
    for (const directive of [
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ]) {
      expect(csp).toContain(directive)
    }
    // Static pages, so no nonce: a script-src here would have to allow Next's inline scripts.
    expect(csp).not.toContain('script-src')
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    for (const feature of ['camera=()', 'microphone=()', 'geolocation=()']) {
      expect(headers['permissions-policy']).toContain(feature)
    }
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['x-powered-by']).toBeUndefined()
  })
}

test('a form post from another origin is refused and stores nothing', async ({ baseURL }) => {
  const form = await readSignupForm(`${baseURL}/`)
  const address = uniqueEmail('cross-origin')
  const forged = await postSignup(form, {
    fields: [['email', address]],
    origin: 'https://attacker.example',
  })
  expect(forged.status).toBeGreaterThanOrEqual(400)
  expect(forged.outcome).not.toBe('joined')
  // The same post from the site itself joins: the refused one left nothing behind.
  await expect(postSignup(form, { fields: [['email', address]] })).resolves.toMatchObject({
    status: 200,
    outcome: 'joined',
  })
})

test('a submission over the size cap is refused before it is read', async ({ baseURL }) => {
  const form = await readSignupForm(`${baseURL}/`)
  const address = uniqueEmail('oversize')
  const padded = await postSignup(form, {
    fields: [
      ['email', address],
      ['padding', 'x'.repeat(20_000)],
    ],
  })
  expect(padded.status).toBeGreaterThanOrEqual(400)
  expect(padded.outcome).not.toBe('joined')
  await expect(postSignup(form, { fields: [['email', address]] })).resolves.toMatchObject({
    outcome: 'joined',
  })
})

test('the honeypot is out of sight and reach, and a filled one is answered as a success', async ({
  page,
}) => {
  await page.goto('/')
  const form = waitlistForm(page, 'hero')
  const honeypot = form.form.locator('input[name="website"]')
  await expect(honeypot).toHaveAttribute('tabindex', '-1')
  await expect(honeypot).toHaveAttribute('autocomplete', 'off')
  await expect(form.form.getByRole('textbox')).toHaveCount(1)
  await expect(honeypot).not.toBeInViewport()

  const address = uniqueEmail('honeypot')
  await honeypot.evaluate((input: HTMLInputElement) => (input.value = 'https://spam.example'))
  await form.join(address)
  await expect(toast(page, notices.joined.title)).toBeVisible()
  await expect(form.status).toContainText(notices.joined.title)

  // Nothing was stored: a person with the same address is welcomed, not told they are on the list.
  await page.reload()
  await waitlistForm(page, 'hero').join(address)
  await expect(waitlistForm(page, 'hero').status).toContainText(notices.joined.title)
})
