import { describe, expect, it } from 'vitest'
import { readServerConfig } from '@/lib/env'

const anonJwt = (role: string) =>
  `x.${Buffer.from(JSON.stringify({ role })).toString('base64url')}.y`
const supabase = {
  NEXT_PUBLIC_SUPABASE_URL: 'https://abc.supabase.co',
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_abc',
}

describe('the configuration', () => {
  it('with nothing set, is the embedded database in .data/waitlist with the default limits', () => {
    expect(readServerConfig({ NODE_ENV: 'development' }, 'linux')).toEqual({
      ok: true,
      config: {
        store: { kind: 'embedded', dataDir: '.data/waitlist' },
        storeTimeoutMs: 8000,
        perMinute: 10,
        proxies: 0,
      },
    })
  })

  it('takes Supabase from any of the names people have, and a signing secret', () => {
    const result = readServerConfig({
      SUPABASE_URL: 'https://abc.supabase.co',
      SUPABASE_ANON_KEY: anonJwt('anon'),
      WAITLIST_SIGNING_SECRET: 'x'.repeat(32),
    })
    expect(result.ok && result.config.store).toMatchObject({
      kind: 'supabase',
      keyVar: 'SUPABASE_ANON_KEY',
      signingSecret: 'x'.repeat(32),
    })
  })

  it.each([
    [
      { ...supabase, NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: 'sb_secret_abc' },
      'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY holds a secret key (role service_role)',
    ],
    [
      { SUPABASE_URL: 'https://abc.supabase.co', SUPABASE_ANON_KEY: anonJwt('service_role') },
      'SUPABASE_ANON_KEY holds a secret key',
    ],
    [{ NEXT_PUBLIC_SUPABASE_URL: 'https://abc.supabase.co' }, 'no Supabase key is'],
    [{ SUPABASE_ANON_KEY: 'sb_publishable_abc' }, 'no Supabase URL is'],
    [{ ...supabase, NEXT_PUBLIC_SUPABASE_URL: 'abc.supabase.co' }, 'is not an http(s) URL'],
    [
      { ...supabase, WAITLIST_SIGNING_SECRET: 'short' },
      'WAITLIST_SIGNING_SECRET must be at least 32 characters',
    ],
    [{ VERCEL: '1' }, 'Supabase is not configured for this Vercel environment'],
    [
      { WAITLIST_RATE_LIMIT_PER_MINUTE: 'ten' },
      'WAITLIST_RATE_LIMIT_PER_MINUTE must be a whole number from 0 to 100000, not "ten"',
    ],
    [{ WAITLIST_TRUSTED_PROXY: 'yes' }, 'WAITLIST_TRUSTED_PROXY must be a whole number'],
  ])('refuses %j, naming the variable', (env, problem) => {
    const result = readServerConfig(env)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.problem).toContain(problem)
  })

  it('in production, keeps the list only in the folder WAITLIST_DATA_DIR names, and says both ways out when it names none', () => {
    const named = readServerConfig({ NODE_ENV: 'production', WAITLIST_DATA_DIR: '/srv/list' })
    expect(named.ok && named.config.store).toEqual({ kind: 'embedded', dataDir: '/srv/list' })
    const unnamed = readServerConfig({ NODE_ENV: 'production', WAITLIST_DATA_DIR: ' ' })
    expect(unnamed).toEqual({
      ok: false,
      problem:
        'this production server has nowhere to keep the list: set NEXT_PUBLIC_SUPABASE_URL and ' +
        'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY for Supabase, or WAITLIST_DATA_DIR to the folder ' +
        'the embedded database keeps it in.',
    })
  })

  it('on native Windows, says in one line that the embedded database needs WSL or Supabase; Supabase itself runs there', () => {
    const embedded = readServerConfig({ NODE_ENV: 'development' }, 'win32')
    expect(embedded.ok).toBe(false)
    expect(!embedded.ok && embedded.problem).toMatch(
      /^the embedded database needs Unix sockets, which native Windows lacks: run the site in WSL, or set NEXT_PUBLIC_SUPABASE_URL and NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY for Supabase\.$/,
    )
    expect(readServerConfig(supabase, 'win32').ok).toBe(true)
  })

  it('trusts Vercel, or the number of proxies declared', () => {
    const vercel = readServerConfig({ ...supabase, VERCEL: '1' })
    expect(vercel.ok && vercel.config.proxies).toBe('vercel')
    const proxied = readServerConfig({
      WAITLIST_TRUSTED_PROXY: '2',
      WAITLIST_RATE_LIMIT_PER_MINUTE: '0',
    })
    expect(proxied.ok && [proxied.config.proxies, proxied.config.perMinute]).toEqual([2, 0])
  })
})
