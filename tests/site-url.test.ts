import { describe, expect, it } from 'vitest'
import { absoluteUrl, LOCAL_SITE_URL, resolveSiteUrl } from '@/lib/site-url'

const site = (env: Record<string, string>) => resolveSiteUrl(env).toString()

describe('resolveSiteUrl', () => {
  it('is localhost with nothing set', () => {
    expect(site({})).toBe(`${LOCAL_SITE_URL}/`)
  })

  it('prefers NEXT_PUBLIC_SITE_URL over every Vercel variable, keeping only its origin', () => {
    expect(
      site({
        NEXT_PUBLIC_SITE_URL: 'https://collably.example/landing/?x=1',
        VERCEL_ENV: 'production',
        VERCEL_PROJECT_PRODUCTION_URL: 'collably.vercel.app',
        VERCEL_URL: 'collably-abc123.vercel.app',
      }),
    ).toBe('https://collably.example/')
  })

  it('adds https:// to a bare host name and keeps an explicit http://', () => {
    expect(site({ NEXT_PUBLIC_SITE_URL: ' collably.example ' })).toBe('https://collably.example/')
    expect(site({ NEXT_PUBLIC_SITE_URL: 'http://localhost:6110' })).toBe('http://localhost:6110/')
  })

  it('refuses a value that is not an http(s) URL, naming the variable', () => {
    expect(() => site({ NEXT_PUBLIC_SITE_URL: 'https://' })).toThrow(/NEXT_PUBLIC_SITE_URL/)
    expect(() => site({ NEXT_PUBLIC_SITE_URL: 'ftp://collably.example' })).toThrow(
      /NEXT_PUBLIC_SITE_URL must be an http\(s\) URL/,
    )
  })

  it('uses the production domain on a Vercel production build', () => {
    expect(
      site({
        VERCEL_ENV: 'production',
        VERCEL_PROJECT_PRODUCTION_URL: 'collably.example',
        VERCEL_URL: 'collably-abc123.vercel.app',
      }),
    ).toBe('https://collably.example/')
    expect(site({ VERCEL_ENV: 'production', VERCEL_URL: 'collably-abc123.vercel.app' })).toBe(
      'https://collably-abc123.vercel.app/',
    )
  })

  it("uses a preview's own address, so its share card shows that preview", () => {
    const preview = {
      VERCEL_ENV: 'preview',
      VERCEL_PROJECT_PRODUCTION_URL: 'collably.example',
      VERCEL_URL: 'collably-abc123.vercel.app',
    }
    expect(site(preview)).toBe('https://collably-abc123.vercel.app/')
    expect(site({ ...preview, VERCEL_BRANCH_URL: 'collably-git-feature.vercel.app' })).toBe(
      'https://collably-git-feature.vercel.app/',
    )
  })
})

describe('absoluteUrl', () => {
  it('resolves a path against the site', () => {
    expect(absoluteUrl('/sitemap.xml', { NEXT_PUBLIC_SITE_URL: 'https://collably.example' })).toBe(
      'https://collably.example/sitemap.xml',
    )
  })
})
