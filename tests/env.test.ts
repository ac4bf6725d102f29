import { describe, expect, it } from 'vitest'
import {
  ConfigError,
  DEFAULT_DATA_DIR,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_STORE_TIMEOUT_MS,
  readOperatorStore,
  readServerConfig,
} from '@/lib/env'
import { DEMO_ANON_KEY, DEMO_SERVICE_ROLE_KEY } from './harness/postgrest'

const URL_ = 'https://abcd.supabase.co'
const KEY = 'sb_publishable_test'

describe('readServerConfig', () => {
  it('uses the embedded store with no configuration at all', () => {
    expect(readServerConfig({})).toEqual({
      store: { kind: 'embedded', dataDir: DEFAULT_DATA_DIR },
      storeTimeoutMs: DEFAULT_STORE_TIMEOUT_MS,
      rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
      signupCeilingPerMinute: undefined,
      forwardedForSetBy: 'client',
    })
  })

  it('honours WAITLIST_DATA_DIR and WAITLIST_STORE_TIMEOUT_MS', () => {
    expect(
      readServerConfig({ WAITLIST_DATA_DIR: 'memory://', WAITLIST_STORE_TIMEOUT_MS: '1500' }),
    ).toEqual({
      store: { kind: 'embedded', dataDir: 'memory://' },
      storeTimeoutMs: 1500,
      rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
      signupCeilingPerMinute: undefined,
      forwardedForSetBy: 'client',
    })
  })

  it.each([
    ['NEXT_PUBLIC_SUPABASE_URL', 'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY'],
    ['NEXT_PUBLIC_SUPABASE_URL', 'NEXT_PUBLIC_SUPABASE_ANON_KEY'],
    ['SUPABASE_URL', 'SUPABASE_ANON_KEY'],
  ])('uses Supabase with %s and %s', (urlVar, keyVar) => {
    expect(readServerConfig({ [urlVar]: URL_, [keyVar]: KEY }).store).toEqual({
      kind: 'supabase',
      url: URL_,
      key: KEY,
      urlVar,
      keyVar,
    })
  })

  it('names the missing key when only a URL is set, instead of falling back', () => {
    expect(() => readServerConfig({ SUPABASE_URL: URL_ })).toThrow(ConfigError)
    expect(() => readServerConfig({ SUPABASE_URL: URL_ })).toThrow(
      /SUPABASE_URL is set but no Supabase key.*NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY/,
    )
  })

  it('names the missing URL when only a key is set', () => {
    expect(() => readServerConfig({ SUPABASE_ANON_KEY: KEY })).toThrow(
      /SUPABASE_ANON_KEY is set but no Supabase URL/,
    )
  })

  it('names a malformed URL', () => {
    expect(() =>
      readServerConfig({ NEXT_PUBLIC_SUPABASE_URL: 'abcd.supabase.co', SUPABASE_ANON_KEY: KEY }),
    ).toThrow(/NEXT_PUBLIC_SUPABASE_URL is not an http\(s\) URL/)
  })

  it('refuses the embedded store on Vercel, naming the variables to set', () => {
    expect(() => readServerConfig({ VERCEL: '1' })).toThrow(
      /NEXT_PUBLIC_SUPABASE_URL and NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY/,
    )
    expect(
      readServerConfig({ VERCEL: '1', SUPABASE_URL: URL_, SUPABASE_ANON_KEY: KEY }).store.kind,
    ).toBe('supabase')
  })

  it('names a timeout that is not a number of milliseconds', () => {
    expect(() => readServerConfig({ WAITLIST_STORE_TIMEOUT_MS: 'soon' })).toThrow(
      /WAITLIST_STORE_TIMEOUT_MS/,
    )
  })

  it('limits each client to 10 signups a minute unless WAITLIST_RATE_LIMIT_PER_MINUTE says otherwise', () => {
    expect(DEFAULT_RATE_LIMIT_PER_MINUTE).toBe(10)
    expect(readServerConfig({ WAITLIST_RATE_LIMIT_PER_MINUTE: '30' }).rateLimitPerMinute).toBe(30)
    expect(readServerConfig({ WAITLIST_RATE_LIMIT_PER_MINUTE: ' 0 ' }).rateLimitPerMinute).toBe(0)
  })

  it.each(['ten', '-1', '2.5', '1e9'])(
    'names a WAITLIST_RATE_LIMIT_PER_MINUTE of %j as malformed',
    (value) => {
      expect(() => readServerConfig({ WAITLIST_RATE_LIMIT_PER_MINUTE: value })).toThrow(ConfigError)
      expect(() => readServerConfig({ WAITLIST_RATE_LIMIT_PER_MINUTE: value })).toThrow(
        /WAITLIST_RATE_LIMIT_PER_MINUTE must be a whole number/,
      )
    },
  )

  it('leaves the ceiling to the database unless WAITLIST_SIGNUPS_PER_MINUTE_CEILING sets one', () => {
    expect(readServerConfig({}).signupCeilingPerMinute).toBeUndefined()
    expect(
      readServerConfig({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: ' ' }).signupCeilingPerMinute,
    ).toBe(undefined)
    expect(
      readServerConfig({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '1200' }).signupCeilingPerMinute,
    ).toBe(1200)
    expect(
      readServerConfig({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '0' }).signupCeilingPerMinute,
    ).toBe(0)
  })

  it.each(['lots', '-5', '1.5', '120/min'])(
    'names a WAITLIST_SIGNUPS_PER_MINUTE_CEILING of %j as malformed',
    (value) => {
      expect(() => readServerConfig({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: value })).toThrow(
        /WAITLIST_SIGNUPS_PER_MINUTE_CEILING must be a whole number/,
      )
    },
  )

  it('knows who writes X-Forwarded-For: Vercel, a declared proxy, or the client', () => {
    expect(
      readServerConfig({ VERCEL: '1', SUPABASE_URL: URL_, SUPABASE_ANON_KEY: KEY }),
    ).toMatchObject({
      forwardedForSetBy: 'vercel',
    })
    for (const value of ['1', 'true', ' TRUE ']) {
      expect(readServerConfig({ WAITLIST_TRUSTED_PROXY: value }).forwardedForSetBy).toBe('proxy')
    }
    for (const value of ['', '0', 'false']) {
      expect(readServerConfig({ WAITLIST_TRUSTED_PROXY: value }).forwardedForSetBy).toBe('client')
    }
    expect(() => readServerConfig({ WAITLIST_TRUSTED_PROXY: 'nginx' })).toThrow(
      /WAITLIST_TRUSTED_PROXY must be 1 .* or 0, not "nginx"/,
    )
  })
})

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
