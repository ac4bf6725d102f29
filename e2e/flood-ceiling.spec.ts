import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { noSupabase } from '../tests/support/environments'
import { postSignup, readSignupForm, type PostResult } from '../tests/support/form-post'
import { EMBEDDED_STORE_OPEN, startNextServer } from '../tests/support/next-server'
import { unusedPort } from '../tests/support/ports'
import { storedAddresses } from '../tests/support/stored-rows'

/**
 * The flood the ceiling exists for: `next start` with no proxy in front and
 * the default limits, and a script that gives every post an X-Forwarded-For
 * of its own, so the per-client limit never sees the same client twice. The
 * site gets a server of its own, on disk, so what it stored can be counted
 * once it has stopped.
 */
const POSTS = 300
const CONCURRENCY = 10
const DEFAULT_CEILING = 120

test('300 posts, each forging its own X-Forwarded-For, store at most the ceiling, and each gets a notice', async () => {
  test.setTimeout(180_000)
  const dataDir = await mkdtemp(path.join(tmpdir(), 'waitlist-flood-'))
  const site = await startNextServer({
    command: 'start',
    port: await unusedPort(),
    host: '127.0.0.1',
    // Blank reads as unset: the defaults a fresh self-hosted server runs with.
    env: {
      ...noSupabase,
      WAITLIST_DATA_DIR: dataDir,
      WAITLIST_RATE_LIMIT_PER_MINUTE: '',
      WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '',
      WAITLIST_TRUSTED_PROXY: '',
    },
    readyWithinMs: 60_000,
    readyOutput: EMBEDDED_STORE_OPEN,
  })
  const results: { email: string; result: PostResult }[] = []
  try {
    const form = await readSignupForm(`${site.url}/`)
    let next = 0
    const worker = async () => {
      while (next < POSTS) {
        const i = next++
        const email = `flood-${i}@example.com`
        const forged = `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`
        const result = await postSignup(form, {
          fields: [['email', email]],
          headers: { 'x-forwarded-for': forged },
        })
        results.push({ email, result })
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  } finally {
    await site.stop()
  }
  const stored = await storedAddresses(dataDir).finally(() =>
    rm(dataDir, { recursive: true, force: true }),
  )

  expect(results).toHaveLength(POSTS)
  // Every post got the page back, with a notice: no 5xx, no blank answer.
  expect(results.filter(({ result }) => result.status !== 200)).toEqual([])
  const outcomes = results.map(({ result }) => result.outcome)
  expect(outcomes.filter((outcome) => outcome !== 'joined' && outcome !== 'rate_limited')).toEqual(
    [],
  )

  // The ceiling, and nothing past it: what was stored is exactly what was welcomed.
  const welcomed = results
    .filter(({ result }) => result.outcome === 'joined')
    .map(({ email }) => email)
  expect(stored.length).toBeLessThanOrEqual(DEFAULT_CEILING)
  expect([...stored].sort()).toEqual([...welcomed].sort())
  // The posts take seconds, well inside one minute: the whole ceiling was admitted, no more.
  expect(welcomed).toHaveLength(DEFAULT_CEILING)

  // Said once at start-up, and once as the burst of refusals began, not per refused post.
  const log = site.output()
  expect(log.match(/keyed on X-Forwarded-For, which any client can set/g)).toHaveLength(1)
  expect(log.match(/over this server's ceiling of 120 a minute/g)).toHaveLength(1)
})
