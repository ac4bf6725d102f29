import { expect, test } from '@playwright/test'
import { notices } from '../lib/waitlist/notice'
import { noSupabase } from '../tests/support/environments'
import { startNextServer, type NextServer } from '../tests/support/next-server'
import { unusedPort } from '../tests/support/ports'
import { toast, uniqueEmail, waitlistForm } from './waitlist-page'

/**
 * `npm run dev` opened at 127.0.0.1 rather than localhost, as a phone on the
 * same network opens the LAN address: the page must hydrate, which a toast
 * proves (without JavaScript the form still posts, but there is no toast).
 * The server listens on every interface, as `npm run dev` does: told to
 * listen on 127.0.0.1 alone, Next would allow that host by itself, and the
 * test would prove nothing about the configuration.
 */
let server: NextServer

// The first compile of a page takes a while on a small, busy machine: the waits are generous.
test.describe.configure({ timeout: 300_000 })

test.beforeAll(async () => {
  test.setTimeout(300_000)
  const port = await unusedPort()
  server = await startNextServer({
    command: 'dev',
    port,
    host: null,
    env: { ...noSupabase, WAITLIST_DATA_DIR: 'memory://', NODE_ENV: 'development' },
    readyWithinMs: 240_000,
  })
})

test.afterAll(async () => {
  await server?.stop()
})

test('the dev server at 127.0.0.1 hydrates the page: a signup shows its toast', async ({
  page,
}) => {
  await page.goto(`${server.url}/`, { timeout: 120_000 })
  const form = waitlistForm(page, 'hero')
  // Refused by the server, so the action's answer carries it back to the field, and the next post
  // sends that answer back to the action as its first argument.
  const refused = `${uniqueEmail('dev').split('@')[0]}@localhost`
  await form.join(refused)
  await expect(toast(page, notices.invalidEmail.title)).toBeVisible({ timeout: 120_000 })
  const email = uniqueEmail('dev')
  await form.join(email)
  await expect(toast(page, notices.joined.title)).toBeVisible({ timeout: 120_000 })
  expect(server.output()).not.toContain('Blocked cross-origin request')
  // Next logs each request once answered, and (unless turned off) the action's call with its
  // arguments under it. Addresses in the log are masked, always.
  await server.waitForOutput(/POST [^]*POST /, 30_000)
  expect(server.output()).not.toContain(refused.split('@')[0])
  expect(server.output()).not.toContain(email.split('@')[0])
})
