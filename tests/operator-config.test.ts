import { describe, expect, it } from 'vitest'
import { ConfigError, DEFAULT_DATA_DIR } from '@/lib/env'
import { readOperatorStore } from '@/lib/waitlist/operator/config'
import { DEMO_ANON_KEY, DEMO_SERVICE_ROLE_KEY } from './harness/postgrest'

const URL_ = 'https://abcd.supabase.co'

describe('readOperatorStore', () => {
  it('reads the embedded database with no configuration, like the site', () => {
    expect(readOperatorStore({})).toEqual({ kind: 'embedded', dataDir: DEFAULT_DATA_DIR })
    expect(readOperatorStore({ WAITLIST_DATA_DIR: '/srv/list' })).toEqual({
      kind: 'embedded',
      dataDir: '/srv/list',
    })
  })

  it.each([
    ['SUPABASE_SERVICE_ROLE_KEY', DEMO_SERVICE_ROLE_KEY],
    ['SUPABASE_SECRET_KEY', 'sb_secret_abc'],
  ])('reads Supabase with %s', (keyVar, key) => {
    expect(
      readOperatorStore({ NEXT_PUBLIC_SUPABASE_URL: URL_, SUPABASE_ANON_KEY: 'x', [keyVar]: key }),
    ).toEqual({ kind: 'supabase', url: URL_, serviceKey: key, keyVar })
  })

  it('asks for the service key, by name, when Supabase has only its public key', () => {
    const read = () =>
      readOperatorStore({ NEXT_PUBLIC_SUPABASE_URL: URL_, NEXT_PUBLIC_SUPABASE_ANON_KEY: 'x' })
    expect(read).toThrow(ConfigError)
    expect(read).toThrow(/set SUPABASE_SERVICE_ROLE_KEY or SUPABASE_SECRET_KEY/)
  })

  it.each([
    ['a publishable key', 'sb_publishable_abc'],
    ['a legacy anon key', DEMO_ANON_KEY],
  ])('refuses %s set as the service key', (_, key) => {
    expect(() => readOperatorStore({ SUPABASE_URL: URL_, SUPABASE_SERVICE_ROLE_KEY: key })).toThrow(
      /SUPABASE_SERVICE_ROLE_KEY holds the public key/,
    )
  })

  it('refuses the same value as the configured public key', () => {
    expect(() =>
      readOperatorStore({
        SUPABASE_URL: URL_,
        NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: 'same',
        SUPABASE_SECRET_KEY: 'same',
      }),
    ).toThrow(/holds the public key/)
  })

  it('names the URL variables when a key has no URL, and refuses a malformed URL', () => {
    expect(() => readOperatorStore({ SUPABASE_SECRET_KEY: 'sb_secret_abc' })).toThrow(
      /SUPABASE_SECRET_KEY is set but no Supabase URL is: set NEXT_PUBLIC_SUPABASE_URL or SUPABASE_URL/,
    )
    expect(() =>
      readOperatorStore({ SUPABASE_URL: 'abcd.supabase.co', SUPABASE_SECRET_KEY: 'sb_secret_abc' }),
    ).toThrow(/SUPABASE_URL is not an http\(s\) URL/)
  })
})
