import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from 'next/constants'
import { describe, expect, it, vi } from 'vitest'
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

describe('a production build', () => {
  it('with no address of its own, says once, as it starts, that its links will name localhost', async () => {
    const set = [
      'NEXT_PUBLIC_SITE_URL',
      'VERCEL_ENV',
      'VERCEL_URL',
      'VERCEL_BRANCH_URL',
      'VERCEL_PROJECT_PRODUCTION_URL',
      'SITE_URL_WARNED',
    ]
    for (const name of set) vi.stubEnv(name, undefined)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { default: config } = await import('@/next.config')
    config(PHASE_DEVELOPMENT_SERVER)
    config(PHASE_PRODUCTION_BUILD)
    config(PHASE_PRODUCTION_BUILD)
    expect(warn.mock.calls).toEqual([
      [
        expect.stringMatching(
          /^⚠ NEXT_PUBLIC_SITE_URL is not set: canonical links, .* will name http:\/\/localhost:3000;/,
        ),
      ],
    ])
    vi.stubEnv('SITE_URL_WARNED', undefined)
    vi.stubEnv('NEXT_PUBLIC_SITE_URL', 'https://collably.example')
    config(PHASE_PRODUCTION_BUILD)
    expect(warn).toHaveBeenCalledOnce()
  })
})
