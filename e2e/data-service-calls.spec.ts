import { expect, test } from '@playwright/test'
import { notices, statusText } from '../lib/waitlist/notice'
import { startSupabaseHarness, type SupabaseHarness } from '../tests/harness/postgrest'
import { noSupabase } from '../tests/support/environments'
import { startNextServer, type NextServer } from '../tests/support/next-server'
import { unusedPort } from '../tests/support/ports'
import { toast, uniqueEmail, waitlistForm } from './waitlist-page'

/**
 * Every request the site sends Supabase is one a visitor waits for, and on
 * Vercel a cold start is on a visitor's path too: the site asks the data
 * service for nothing but the insert of a signup. A server of its own on a
 * stand-in of its own, so that what it sends as it starts is counted too.
 */
test.describe.configure({ timeout: 120_000 })

let harness: SupabaseHarness
let server: NextServer

test.beforeAll(async () => {
  test.setTimeout(120_000)
  harness = await startSupabaseHarness()
  server = await startNextServer({
    port: await unusedPort(),
    env: { ...noSupabase, SUPABASE_URL: harness.url, SUPABASE_ANON_KEY: harness.anonKey },
  })
  // The store is chosen as the server starts: whatever it sends then is sent by now.
  await server.waitForOutput(/signups go to Supabase at/)
})

test.afterAll(async () => {
  await server?.stop()
  await harness?.close()
})

test('from start-up through a signup from each form, the server sends only the inserts', async ({
  page,
}) => {
  await page.goto(`${server.url}/`)
  const joined: { email: string; source: string }[] = []
  for (const [name, source] of [
    ['hero', 'hero_section'],
    ['cta', 'cta_section'],
  ] as const) {
    const form = waitlistForm(page, name)
    const email = uniqueEmail(name)
    await form.join(email)
    await expect(form.status).toHaveText(statusText(notices.joined))
    await expect(toast(page, notices.joined.title)).toHaveCount(joined.length + 1)
    joined.push({ email, source })
  }

  const sent = harness.requests.map(({ method, url }) => `${method} ${url}`)
  expect(sent).toEqual(['POST /rest/v1/waitlist', 'POST /rest/v1/waitlist'])
  expect(harness.requests.map(({ body }) => JSON.parse(body))).toEqual(joined)
  // With the public key the site was given, and no other.
  for (const { headers } of harness.requests) expect(headers.apikey).toBe(harness.anonKey)
})
