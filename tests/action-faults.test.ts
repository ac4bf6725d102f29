import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  cannedAnswers,
  startSupabaseHarness,
  type Fault,
  type SupabaseHarness,
} from './harness/postgrest'
import { freshAction, type JoinAction } from './support/fresh-server'
import { unusedPort } from './support/ports'

vi.mock('next/headers', async () => ({
  headers: (await import('./support/request')).requestHeaders,
}))

/**
 * Each backend fault, through the action as a form post reaches it, on the
 * Supabase store against the local stand-in: the visitor gets the generic
 * notice and keeps the address, nothing is stored, the cause is logged
 * exactly once with the address masked, and the next signup is served.
 */
const faults: [prefix: string, fault: Fault, cause: RegExp][] = [
  ['fail-refuse', { kind: 'refuse' }, /no answer, code none/],
  ['fail-hang', { kind: 'hang' }, /StoreError: the store did not answer within 500 ms/],
  ['fail-502', cannedAnswers.html502, /HTTP 502, code none\): <html>.*502 Bad Gateway/],
  ['fail-500', cannedAnswers.internal500, /HTTP 500, code XX000\): internal error/],
  ['fail-401', cannedAnswers.invalidApiKey, /HTTP 401, code none\): Invalid API key/],
  ['fail-rls', cannedAnswers.rlsViolation, /HTTP 401, code 42501/],
]

let harness: SupabaseHarness

async function loadAction(env: Record<string, string>): Promise<JoinAction> {
  vi.spyOn(console, 'info').mockImplementation(() => {})
  return freshAction({
    WAITLIST_RATE_LIMIT_PER_MINUTE: '0',
    WAITLIST_STORE_TIMEOUT_MS: '500',
    ...env,
  })
}

function post(email: string): FormData {
  const form = new FormData()
  form.set('source', 'hero_section')
  form.set('email', email)
  return form
}

async function expectFaultHandled(joinWaitlist: JoinAction, address: string, cause: RegExp) {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  const state = await joinWaitlist({ status: 'idle' }, post(address))
  expect(state).toMatchObject({ status: 'error', email: address })
  expect(logged).toHaveBeenCalledTimes(1)
  const line = String(logged.mock.calls[0]?.[0])
  expect(line).toContain('signup failed')
  expect(line).toMatch(cause)
  expect(line).toContain(`${address.slice(0, 2)}***@example.com`)
  expect(line).not.toContain(address.split('@')[0])
  logged.mockRestore()
  const { rows } = await harness.db.query('select 1 from public.waitlist where email = $1', [
    address,
  ])
  expect(rows).toEqual([])
}

beforeAll(async () => {
  harness = await startSupabaseHarness({
    faultFor: ({ method, body }) => {
      const email = String((body as { email?: unknown } | undefined)?.email ?? '')
      return method === 'POST'
        ? faults.find(([prefix]) => email.startsWith(prefix))?.[1]
        : undefined
    },
  })
})
afterAll(() => harness.close())
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

describe('the action, when the backend fails', () => {
  it.each(faults)(
    '%s: generic notice, address kept, nothing stored, logged once and masked, still serving',
    async (prefix, _fault, cause) => {
      const joinWaitlist = await loadAction({
        SUPABASE_URL: harness.url,
        SUPABASE_ANON_KEY: harness.anonKey,
      })
      const address = `${prefix}-ann@example.com`
      await expectFaultHandled(joinWaitlist, address, cause)
      await expect(
        joinWaitlist({ status: 'idle' }, post(`after-${prefix}@example.com`)),
      ).resolves.toMatchObject({
        status: 'joined',
      })
    },
  )

  it('nothing listening: generic notice, address kept, logged once and masked', async () => {
    const joinWaitlist = await loadAction({
      SUPABASE_URL: `http://127.0.0.1:${await unusedPort()}`,
      SUPABASE_ANON_KEY: harness.anonKey,
    })
    await expectFaultHandled(
      joinWaitlist,
      'refused-ann@example.com',
      /no answer, code none\): TypeError: fetch failed/,
    )
  })

  it('a key the gateway does not know: generic notice, address kept, logged once and masked', async () => {
    const joinWaitlist = await loadAction({
      SUPABASE_URL: harness.url,
      SUPABASE_ANON_KEY: 'sb_publishable_wrong',
    })
    await expectFaultHandled(
      joinWaitlist,
      'badkey-ann@example.com',
      /HTTP 401, code none\): Invalid API key/,
    )
  })
})
