import { access } from 'node:fs/promises'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { freshAction } from './support/fresh-server'

afterEach(() => vi.restoreAllMocks())

/** What a freshly started server with `env` says at start-up about its rate-limit key. */
async function startUpWarnings(env: Record<string, string>): Promise<string[]> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
  await freshAction({ WAITLIST_DATA_DIR: 'memory://', ...env })
  const { warnIfClientsPickTheirKey } = await import('@/lib/waitlist/visitor-limits')
  // Instrumentation may run more than once in a process; the line is said once.
  warnIfClientsPickTheirKey()
  warnIfClientsPickTheirKey()
  return warn.mock.calls.map(([line]) => String(line))
}

const supabase = { SUPABASE_URL: 'https://abcd.supabase.co', SUPABASE_ANON_KEY: 'sb_publishable_x' }

describe('the start-up warning about the rate-limit key', () => {
  it('warns once when no platform or declared proxy writes X-Forwarded-For, naming the fix', async () => {
    const lines = await startUpWarnings({})
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('keyed on X-Forwarded-For, which any client can set')
    expect(lines[0]).toContain(
      "only the database's ceiling on signups a minute from everyone together holds against a flood",
    )
    expect(lines[0]).toContain('WAITLIST_TRUSTED_PROXY=1')
    expect(lines[0]).toContain('see docs/abuse-faults-and-load.md.')
  })

  it('names a doc that exists', async () => {
    const { PROXY_DOC } = await import('@/lib/waitlist/visitor-limits')
    await expect(access(PROXY_DOC)).resolves.toBeUndefined()
  })

  it('says so when the ceiling is off too', async () => {
    const [line] = await startUpWarnings({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '0' })
    expect(line).toContain('the ceiling is off (WAITLIST_SIGNUPS_PER_MINUTE_CEILING=0)')
  })

  it.each([
    ['on Vercel', { VERCEL: '1', ...supabase }],
    ['behind a declared proxy', { WAITLIST_TRUSTED_PROXY: '1' }],
    ['with the per-client limit off', { WAITLIST_RATE_LIMIT_PER_MINUTE: '0' }],
  ])('stays quiet %s', async (_, env) => {
    await expect(startUpWarnings(env)).resolves.toEqual([])
  })
})
