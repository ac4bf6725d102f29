import { describe, expect, it } from 'vitest'
import { allowsIndexing, indexingHeaders, robotsRules, rootMetadata, siteUrl } from '@/lib/seo'

describe("the site's address", () => {
  it("is NEXT_PUBLIC_SITE_URL, else the production domain or the preview's own, else localhost", () => {
    expect(
      siteUrl({ NEXT_PUBLIC_SITE_URL: 'collably.example/path', VERCEL_ENV: 'production' }).href,
    ).toBe('https://collably.example/')
    expect(
      siteUrl({
        VERCEL_ENV: 'production',
        VERCEL_PROJECT_PRODUCTION_URL: 'collably.vercel.app',
        VERCEL_URL: 'x.vercel.app',
      }).href,
    ).toBe('https://collably.vercel.app/')
    expect(
      siteUrl({
        VERCEL_ENV: 'preview',
        VERCEL_BRANCH_URL: 'branch.vercel.app',
        VERCEL_PROJECT_PRODUCTION_URL: 'collably.vercel.app',
      }).href,
    ).toBe('https://branch.vercel.app/')
    expect(siteUrl({}).href).toBe('http://localhost:3000/')
  })
})

describe('a preview', () => {
  const preview = { VERCEL_ENV: 'preview', VERCEL_URL: 'p.vercel.app' }
  it('is never indexed: a header on every response, the meta tag, and robots.txt', () => {
    expect(allowsIndexing(preview)).toBe(false)
    expect(indexingHeaders(preview)).toEqual([
      { source: '/:path*', headers: [{ key: 'X-Robots-Tag', value: 'noindex, nofollow' }] },
    ])
    expect(rootMetadata(preview).robots).toEqual({ index: false, follow: false })
    expect(robotsRules(preview)).toEqual({ rules: { userAgent: '*', disallow: '/' } })
  })
  it('differs from production, which is indexed and lists its sitemap', () => {
    const production = {
      VERCEL_ENV: 'production',
      VERCEL_PROJECT_PRODUCTION_URL: 'collably.example',
    }
    expect(indexingHeaders(production)).toEqual([])
    expect(robotsRules(production)).toMatchObject({
      sitemap: 'https://collably.example/sitemap.xml',
    })
  })
})
