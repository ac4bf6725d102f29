import { describe, expect, it } from 'vitest'
import { homeMetadata, rootMetadata } from '@/lib/metadata'
import { seo } from '@/lib/site'
import { serializeJsonLd, structuredData } from '@/lib/structured-data'

const env = { NEXT_PUBLIC_SITE_URL: 'https://collably.example' }

describe('rootMetadata', () => {
  it('resolves relative URLs against the site and asks for a large share card', () => {
    const metadata = rootMetadata(env)
    expect(metadata.metadataBase?.toString()).toBe('https://collably.example/')
    expect(metadata.title).toBe(seo.title)
    expect(metadata.description).toBe(seo.description)
    expect(metadata.twitter).toMatchObject({ card: 'summary_large_image' })
  })

  it('keeps the description within what search results show', () => {
    expect(seo.description.length).toBeLessThanOrEqual(160)
  })

  it('gives the home page, and only it, a canonical address', () => {
    expect(rootMetadata(env).alternates).toBeUndefined()
    expect(homeMetadata.alternates?.canonical).toBe('/')
    expect(homeMetadata.openGraph).toMatchObject({ url: '/', title: seo.title })
  })
})

describe('structured data', () => {
  it('describes the organisation and the website at the site address', () => {
    const data = structuredData(env)
    expect(data['@graph']).toEqual([
      expect.objectContaining({
        '@type': 'Organization',
        name: 'Collably',
        url: 'https://collably.example/',
        logo: 'https://collably.example/icon.svg',
      }),
      expect.objectContaining({
        '@type': 'WebSite',
        url: 'https://collably.example/',
        publisher: { '@id': 'https://collably.example/#organization' },
      }),
    ])
  })

  it('cannot be closed early by a value, and parses back to the same data', () => {
    const hostile = { name: '</script><script>alert(1)</script>', note: 'a & b > c \u2028' }
    const text = serializeJsonLd(hostile)
    expect(text).not.toMatch(/[<>&\u2028]/)
    expect(JSON.parse(text)).toEqual(hostile)
  })
})
