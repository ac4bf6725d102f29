import { describe, expect, it } from 'vitest'
import {
  ConfigError,
  DEFAULT_DATA_DIR,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_STORE_TIMEOUT_MS,
  readConfig,
} from '@/lib/env'

const URL_ = 'https://abcd.supabase.co'
const KEY = 'sb_publishable_test'

describe('readConfig', () => {
  it('uses the embedded store with no configuration at all', () => {
    expect(readConfig({})).toEqual({
      store: { kind: 'embedded', dataDir: DEFAULT_DATA_DIR },
      storeTimeoutMs: DEFAULT_STORE_TIMEOUT_MS,
      rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
      signupCeilingPerMinute: undefined,
      forwardedForSetBy: 'client',
    })
  })

  it('honours WAITLIST_DATA_DIR and WAITLIST_STORE_TIMEOUT_MS', () => {
    expect(
      readConfig({ WAITLIST_DATA_DIR: 'memory://', WAITLIST_STORE_TIMEOUT_MS: '1500' }),
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
    expect(readConfig({ [urlVar]: URL_, [keyVar]: KEY }).store).toEqual({
      kind: 'supabase',
      url: URL_,
      key: KEY,
      urlVar,
      keyVar,
    })
  })

  it('names the missing key when only a URL is set, instead of falling back', () => {
    expect(() => readConfig({ SUPABASE_URL: URL_ })).toThrow(ConfigError)
    expect(() => readConfig({ SUPABASE_URL: URL_ })).toThrow(
      /SUPABASE_URL is set but no Supabase key.*NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY/,
    )
  })

  it('names the missing URL when only a key is set', () => {
    expect(() => readConfig({ SUPABASE_ANON_KEY: KEY })).toThrow(
      /SUPABASE_ANON_KEY is set but no Supabase URL/,
    )
  })

  it('names a malformed URL', () => {
    expect(() =>
      readConfig({ NEXT_PUBLIC_SUPABASE_URL: 'abcd.supabase.co', SUPABASE_ANON_KEY: KEY }),
    ).toThrow(/NEXT_PUBLIC_SUPABASE_URL is not an http\(s\) URL/)
  })

  it('refuses the embedded store on Vercel, naming the variables to set', () => {
    expect(() => readConfig({ VERCEL: '1' })).toThrow(
      /NEXT_PUBLIC_SUPABASE_URL and NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY/,
    )
    expect(readConfig({ VERCEL: '1', SUPABASE_URL: URL_, SUPABASE_ANON_KEY: KEY }).store.kind).toBe(
      'supabase',
    )
  })

  it('names a timeout that is not a number of milliseconds', () => {
    expect(() => readConfig({ WAITLIST_STORE_TIMEOUT_MS: 'soon' })).toThrow(
      /WAITLIST_STORE_TIMEOUT_MS/,
    )
  })

  it('limits each client to 10 signups a minute unless WAITLIST_RATE_LIMIT_PER_MINUTE says otherwise', () => {
    expect(DEFAULT_RATE_LIMIT_PER_MINUTE).toBe(10)
    expect(readConfig({ WAITLIST_RATE_LIMIT_PER_MINUTE: '30' }).rateLimitPerMinute).toBe(30)
    expect(readConfig({ WAITLIST_RATE_LIMIT_PER_MINUTE: ' 0 ' }).rateLimitPerMinute).toBe(0)
  })

  it.each(['ten', '-1', '2.5', '1e9'])(
    'names a WAITLIST_RATE_LIMIT_PER_MINUTE of %j as malformed',
    (value) => {
      expect(() => readConfig({ WAITLIST_RATE_LIMIT_PER_MINUTE: value })).toThrow(ConfigError)
      expect(() => readConfig({ WAITLIST_RATE_LIMIT_PER_MINUTE: value })).toThrow(
        /WAITLIST_RATE_LIMIT_PER_MINUTE must be a whole number/,
      )
    },
  )

  it('leaves the ceiling to the database unless WAITLIST_SIGNUPS_PER_MINUTE_CEILING sets one', () => {
    expect(readConfig({}).signupCeilingPerMinute).toBeUndefined()
    expect(readConfig({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: ' ' }).signupCeilingPerMinute).toBe(
      undefined,
    )
    expect(readConfig({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '1200' }).signupCeilingPerMinute).toBe(
      1200,
    )
    expect(readConfig({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '0' }).signupCeilingPerMinute).toBe(0)
  })

  it.each(['lots', '-5', '1.5', '120/min'])(
    'names a WAITLIST_SIGNUPS_PER_MINUTE_CEILING of %j as malformed',
    (value) => {
      expect(() => readConfig({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: value })).toThrow(
        /WAITLIST_SIGNUPS_PER_MINUTE_CEILING must be a whole number/,
      )
    },
  )

  it('knows who writes X-Forwarded-For: Vercel, a declared proxy, or the client', () => {
    expect(readConfig({ VERCEL: '1', SUPABASE_URL: URL_, SUPABASE_ANON_KEY: KEY })).toMatchObject({
      forwardedForSetBy: 'vercel',
    })
    for (const value of ['1', 'true', ' TRUE ']) {
      expect(readConfig({ WAITLIST_TRUSTED_PROXY: value }).forwardedForSetBy).toBe('proxy')
    }
    for (const value of ['', '0', 'false']) {
      expect(readConfig({ WAITLIST_TRUSTED_PROXY: value }).forwardedForSetBy).toBe('client')
    }
    expect(() => readConfig({ WAITLIST_TRUSTED_PROXY: 'nginx' })).toThrow(
      /WAITLIST_TRUSTED_PROXY must be 1 .* or 0, not "nginx"/,
    )
  })
})
