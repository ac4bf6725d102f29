import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { supabaseStore } from '@/lib/waitlist/supabase-store'
import {
  cannedAnswers,
  startSupabaseHarness,
  TEST_SIGNING_SECRET,
  type Fault,
  type SupabaseHarness,
} from './harness/postgrest'

/** The store against a stand-in that answers as Supabase's data service does. */
let harness: SupabaseHarness
const faults: Record<string, Fault> = {
  'gateway@example.com': cannedAnswers.invalidApiKey,
  'proxy@example.com': cannedAnswers.html502,
  'cut@example.com': { kind: 'refuse' },
  'hang@example.com': { kind: 'hang' },
}
const visitor = { address: '203.0.113.5', trusted: true }

function storeWith(signingSecret: string | undefined = TEST_SIGNING_SECRET) {
  return supabaseStore(
    {
      kind: 'supabase',
      url: harness.url,
      key: harness.anonKey,
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
  it('is one POST of the row, with the public key and the headers that speak for the visitor', async () => {
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
    expect(request!.headers['x-waitlist-client']).toMatch(/^[\w-]{43}$/)
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
      'gateway@example.com',
      /HTTP 401, code none\): Invalid API key/,
    ],
    [
      "a proxy's HTML page",
      'proxy@example.com',
      /HTTP 502, code none\): <html><body><h1>502 Bad Gateway/,
    ],
    ['a connection cut', 'cut@example.com', /no answer, code none/],
    ['no answer before the deadline', 'hang@example.com', /no answer/],
  ])('fails on %s, saying what came back', async (_what, email, said) => {
    await expect(insert(storeWith(), email, 500)).rejects.toThrow(said)
  })

  it('is refused unsigned or signed with another secret, and every one until a secret is set, naming the command', async () => {
    await expect(insert(storeWith(''), 'unsigned@example.com')).rejects.toThrow(
      /HTTP 401, code 42501\): Only the site adds/,
    )
    await expect(insert(storeWith('x'.repeat(32)), 'foreign@example.com')).rejects.toThrow(
      /HTTP 401, code 42501\): Only the site adds/,
    )
    await harness.db.query('update waitlist_private.secrets set signing_secret = null')
    await expect(insert(storeWith(), 'closed@example.com')).rejects.toThrow(
      /HTTP 401, code 42501\): Signups are closed until a signing secret is set: `npm run waitlist -- signing-secret --set`/,
    )
    await harness.db.query('update waitlist_private.secrets set signing_secret = $1', [
      TEST_SIGNING_SECRET,
    ])
  })
})
