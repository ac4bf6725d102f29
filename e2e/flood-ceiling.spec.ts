import { expect, test } from '@playwright/test'
import { startSupabaseHarness, type SupabaseHarness } from '../tests/harness/postgrest'
import { noSupabase } from '../tests/support/environments'
import {
  postSignup,
  readSignupForm,
  type Outcome,
  type SignupForm,
} from '../tests/support/form-post'
import { startNextServer, type NextServer } from '../tests/support/next-server'
import { unusedPort } from '../tests/support/ports'
import { holdSignupClock, setCeiling, type SignupClock } from '../tests/support/signup-limits'

/**
 * The limits hold for the whole deployment: two `next start` servers of one
 * build on one Supabase stand-in, as two instances on Vercel share one
 * project. The database's clock is held still, so every post below falls in
 * one minute however long the machine takes, and moved on by hand between
 * the parts.
 */
const CEILING = 60
const UNDER_CEILING = 50
const FLOOD = 250
const ALLOWANCE = 10
const MINUTE = 60_000

let harness: SupabaseHarness
let clock: SignupClock
const servers: NextServer[] = []
const forms: SignupForm[] = []

test.describe.configure({ mode: 'serial', timeout: 180_000 })

test.beforeAll(async () => {
  test.setTimeout(180_000)
  harness = await startSupabaseHarness()
  clock = await holdSignupClock(harness.db)
  for (let i = 0; i < 2; i += 1) {
    const server = await startNextServer({
      port: await unusedPort(),
      env: {
        ...noSupabase,
        SUPABASE_URL: harness.url,
        SUPABASE_ANON_KEY: harness.anonKey,
        // Each post below names its own client in X-Forwarded-For, as a proxy in front would.
        WAITLIST_TRUSTED_PROXY: '1',
        // Blank reads as unset: the allowance a fresh deployment asks for.
        WAITLIST_RATE_LIMIT_PER_MINUTE: '',
      },
    })
    servers.push(server)
    forms.push(await readSignupForm(`${server.url}/`))
  }
})

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  await harness?.close()
})

type Sent = { email: string; outcome: Outcome; status: number }

/** Posts `count` signups, alternating between the two servers, each from `client(i)`, `concurrency` at a time. */
async function send(
  count: number,
  tag: string,
  client: (i: number) => string,
  concurrency = 10,
): Promise<Sent[]> {
  const sent: Sent[] = []
  let next = 0
  const worker = async () => {
    while (next < count) {
      const i = next++
      const email = `${tag}-${i}@example.com`
      const result = await postSignup(forms[i % 2]!, {
        fields: [['email', email]],
        headers: { 'x-forwarded-for': client(i) },
      })
      sent.push({ email, outcome: result.outcome, status: result.status })
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return sent
}

/** A made-up client per post: a script forging X-Forwarded-For, the per-client allowance never bites. */
const madeUpClient = (block: number) => (i: number) => `198.18.${block}.${i}, 10.0.0.1`

async function storedLike(pattern: string): Promise<string[]> {
  const { rows } = await harness.db.query<{ email: string }>(
    'select email from public.waitlist where email like $1 order by email',
    [pattern],
  )
  return rows.map((row) => row.email)
}

const welcomed = (sent: Sent[]) =>
  sent
    .filter(({ outcome }) => outcome === 'joined')
    .map(({ email }) => email)
    .sort()

test('a flood split across two servers stores one ceiling in all, and a burst under it loses no signup', async () => {
  await setCeiling(harness.db, CEILING)

  const under = await send(UNDER_CEILING, 'under', madeUpClient(1))
  expect(under.map(({ outcome }) => outcome)).toEqual(Array(UNDER_CEILING).fill('joined'))
  expect(await storedLike('under-%')).toEqual(welcomed(under))

  const flood = await send(FLOOD, 'flood', madeUpClient(2))
  // Every post got the page back with a notice: no 5xx, nothing blank.
  expect(flood.filter(({ status }) => status !== 200)).toEqual([])
  expect(flood.filter(({ outcome }) => outcome !== 'joined' && outcome !== 'rate_limited')).toEqual(
    [],
  )
  // What was stored is exactly what was welcomed, and the two servers together stored one ceiling.
  expect(await storedLike('flood-%')).toEqual(welcomed(flood))
  expect(welcomed(flood)).toHaveLength(CEILING - UNDER_CEILING)
  expect((await storedLike('%')).length).toBe(CEILING)

  // Both servers said at start-up what protects them, without asking, and each said once that it was refusing.
  for (const server of servers) {
    const log = server.output()
    expect(log).toContain(
      `signups meet the database's limits: ${ALLOWANCE} a minute from each visitor (WAITLIST_RATE_LIMIT_PER_MINUTE), ` +
        'and its own ceiling on new signups from everyone together, which `npm run waitlist -- check` shows',
    )
  }
  const refusalLines = servers.map(
    (server) => server.output().match(/signups refused: over the database's ceiling/g)?.length ?? 0,
  )
  expect(refusalLines).toEqual([1, 1])
})

test('an insert sent straight to the data service with the public key meets the same ceiling', async () => {
  const direct = (email: string) =>
    harness.rest('waitlist', {
      method: 'POST',
      body: JSON.stringify({ email, source: 'hero_section' }),
    })

  // The minute of the flood is not over: its ceiling is used up for everyone.
  const refused = await direct('straight-in@example.com')
  expect(refused.status).toBe(429)
  expect(await refused.json()).toMatchObject({ code: 'PT429', details: 'signup_ceiling' })

  await clock.advance(MINUTE)
  const statuses: number[] = []
  for (let i = 0; i < CEILING + 15; i += 1) {
    statuses.push((await direct(`direct-${i}@example.com`)).status)
  }
  expect(statuses.filter((status) => status === 201)).toHaveLength(CEILING)
  expect(statuses.slice(CEILING)).toEqual(Array(15).fill(429))
  expect(await storedLike('direct-%')).toHaveLength(CEILING)
})

test("one visitor's posts across both servers stay within one allowance", async () => {
  await clock.advance(MINUTE)
  const posts = 2 * ALLOWANCE + 4
  const sent = await send(posts, 'one-visitor', () => '203.0.113.77', 1)
  // Each server saw twelve posts, and let the first ten of its own go on: alone, each would
  // have stored ten. The database counted the visitor across both and stored ten in all.
  expect(welcomed(sent)).toHaveLength(ALLOWANCE)
  expect(sent.slice(0, ALLOWANCE).map(({ outcome }) => outcome)).toEqual(
    Array(ALLOWANCE).fill('joined'),
  )
  expect(sent.slice(ALLOWANCE).map(({ outcome }) => outcome)).toEqual(
    Array(posts - ALLOWANCE).fill('rate_limited'),
  )
  expect(await storedLike('one-visitor-%')).toEqual(welcomed(sent))
  // Another visitor meanwhile is welcome.
  const other = await send(2, 'another-visitor', () => '203.0.113.78', 1)
  expect(other.map(({ outcome }) => outcome)).toEqual(['joined', 'joined'])
})
