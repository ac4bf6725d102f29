import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { waitlistStore } from '@/lib/waitlist/server-store'
import { supabaseStore } from '@/lib/waitlist/supabase-store'
import {
  cannedAnswers,
  startSupabaseHarness,
  TEST_SIGNING_SECRET,
  type Fault,
  type SupabaseHarness,
} from './harness/postgrest'
import { startServerWith } from './support/server-start'

/** The store against a stand-in that answers as Supabase's data service does. */
let harness: SupabaseHarness
const faults: Record<string, Fault> = {
  'proxy@example.com': cannedAnswers.html502,
  'cut@example.com': { kind: 'refuse' },
  'hang@example.com': { kind: 'hang' },
}
const visitor = { address: '203.0.113.5', trusted: true }

function storeWith(signingSecret: string | undefined = TEST_SIGNING_SECRET, key = harness.anonKey) {
  return supabaseStore(
    {
      kind: 'supabase',
      url: harness.url,
      key,
      keyVar: 'SUPABASE_ANON_KEY',
      signingSecret,
    },
    10,
  )
}
const insert = (store: ReturnType<typeof storeWith>, email: string, ms = 2000) =>
  store.insert({ email, source: 'cta_section' }, visitor, AbortSignal.timeout(ms))

beforeAll(async () => {
  harness = await startSupabaseHarness({
    signingSecret: TEST_SIGNING_SECRET,
    faultFor: (body) => faults[String((body as { email?: string })?.email)],
  })
})
afterAll(() => harness.close())

describe('on Supabase a signup', () => {
  it('is one POST of the row, with the public key and the headers that speak for the visitor, named alike by every server of the site', async () => {
    harness.requests.length = 0
    await expect(insert(storeWith(), 'ann@example.com')).resolves.toBe('inserted')
    const [request, ...others] = harness.requests
    expect(others).toEqual([])
    expect(request).toMatchObject({
      method: 'POST',
      url: '/rest/v1/waitlist',
      body: '{"email":"ann@example.com","source":"cta_section"}',
    })
    expect(request!.headers).toMatchObject({
      apikey: harness.anonKey,
      authorization: `Bearer ${harness.anonKey}`,
      'content-type': 'application/json',
      'x-waitlist-allowance': '10',
    })
    // Keyed by the secret all the site's servers share, nothing of one's own: the database counts one allowance across them.
    const client = createHmac('sha256', TEST_SIGNING_SECRET).update(
      `waitlist client ${visitor.address}`,
    )
    expect(request!.headers['x-waitlist-client']).toBe(client.digest('base64url'))
    expect(request!.headers.prefer).toBeUndefined()
  })

  it('tells a duplicate (409, 23505) and a refusal over a limit (429, PT429) apart from failures', async () => {
    const store = storeWith()
    await insert(store, 'dup@example.com')
    await expect(insert(store, 'dup@example.com')).resolves.toBe('duplicate')
    await harness.db.query('update waitlist_private.signup_limits set signups_per_minute = 1')
    await expect(insert(store, 'limited@example.com')).resolves.toBe('over_limit')
    await harness.db.query('update waitlist_private.signup_limits set signups_per_minute = null')
  })

  it.each([
    [
      'an answer from the gateway without a code',
      'ann@example.com',
      /HTTP 401, code none\): Invalid API key/,
      'not-the-key',
    ],
    [
      "a proxy's HTML page",
      'proxy@example.com',
      /HTTP 502, code none\): <html><body><h1>502 Bad Gateway/,
    ],
    ['a connection cut', 'cut@example.com', /no answer, code none/],
    ['no answer before the deadline', 'hang@example.com', /no answer/],
  ])('fails on %s, saying what came back', async (_what, email, said, key?: string) => {
    await expect(insert(storeWith(undefined, key), email, 500)).rejects.toThrow(said)
  })

  it('is refused unsigned or signed with another secret, and every one until a secret is set, saying which secret and what to run', async () => {
    const run =
      "set one secret on both, in the database with `WAITLIST_SIGNING_SECRET='<secret>' npm run waitlist -- signing-secret --set`, then on this server"
    await expect(insert(storeWith(''), 'unsigned@example.com')).rejects.toThrow(
      `HTTP 401, code 42501): Only the site adds to the waitlist: this insert is not signed by it. So WAITLIST_SIGNING_SECRET is not set on this server: ${run}`,
    )
    await expect(insert(storeWith('x'.repeat(32)), 'foreign@example.com')).rejects.toThrow(
      `So this server's WAITLIST_SIGNING_SECRET matches neither the database's secret nor the one it replaced: ${run}`,
    )
    await harness.db.query('update waitlist_private.secrets set signing_secret = null')
    await expect(insert(storeWith(), 'closed@example.com')).rejects.toThrow(
      /HTTP 401, code 42501\): Signups are closed until a signing secret is set: .* So the database has no signing secret yet: set one secret on both/,
    )
    await harness.db.query('update waitlist_private.secrets set signing_secret = $1', [
      TEST_SIGNING_SECRET,
    ])
  })

  it('is said at start-up to be refused, in one line naming the variable, while the server has no signing secret', async () => {
    const lines: string[] = []
    const keep = (line: unknown) => void lines.push(String(line))
    for (const level of ['info', 'warn'] as const) vi.spyOn(console, level).mockImplementation(keep)
    startServerWith({
      SUPABASE_URL: harness.url,
      SUPABASE_ANON_KEY: harness.anonKey,
      WAITLIST_SIGNING_SECRET: '',
    })
    await waitlistStore()
    expect(lines).toEqual([
      `[waitlist] signups go to Supabase at ${new URL(harness.url).host} (SUPABASE_ANON_KEY)`,
      '[waitlist] WAITLIST_SIGNING_SECRET is not set, and the database takes only signed signups: every one will be refused until it is set here and in the database (docs/supabase.md#signing).',
    ])
  })
})
