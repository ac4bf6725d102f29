import { describe, expect, it } from 'vitest'
import { allowsIndexing, indexingHeaders, robotsRules } from '@/lib/indexing'
import { rootMetadata } from '@/lib/metadata'

const SITE = { NEXT_PUBLIC_SITE_URL: 'https://collably.example' }

describe('a production build, or one off Vercel', () => {
  it.each([{}, { VERCEL_ENV: 'production' }, { VERCEL_ENV: '' }])('is indexable: %o', (env) => {
    expect(allowsIndexing(env)).toBe(true)
    expect(indexingHeaders(env)).toEqual([])
    expect(rootMetadata({ ...SITE, ...env }).robots).toBeUndefined()
  })

  it('lets every crawler in and points them to the sitemap', () => {
    expect(robotsRules({ ...SITE, VERCEL_ENV: 'production' })).toEqual({
      rules: { userAgent: '*', allow: '/' },
      sitemap: 'https://collably.example/sitemap.xml',
    })
  })
})

describe('a preview or development build on Vercel', () => {
  it.each(['preview', 'development', 'staging'])('says noindex everywhere: %s', (VERCEL_ENV) => {
    const env = { ...SITE, VERCEL_ENV }
    expect(allowsIndexing(env)).toBe(false)
    expect(indexingHeaders(env)).toEqual([
      { source: '/:path*', headers: [{ key: 'X-Robots-Tag', value: 'noindex, nofollow' }] },
    ])
    expect(rootMetadata(env).robots).toEqual({ index: false, follow: false })
    expect(robotsRules(env)).toEqual({ rules: { userAgent: '*', disallow: '/' } })
  })
})
