import type { Metadata, MetadataRoute } from 'next'
import type { Env } from './env'
import { hero, seo, site } from './site'

// What the site says of itself to search engines and link previews, read at build time (prerendered).

const title = `${site.name}: ${site.tagline}`

/** The stats as one line: "10,000+ creators · 500+ brands". */
export const socialProof = hero.stats
  .map((stat) => `${stat.value} ${stat.label.toLowerCase()}`)
  .join(' · ')

export const shareCardAlt = `${site.name}: ${site.tagline.toLowerCase()}. ${socialProof}.`

export function siteUrl(env: Env = process.env): URL {
  const explicit = env.NEXT_PUBLIC_SITE_URL?.trim()
  const vercel =
    env.VERCEL_ENV === 'production'
      ? env.VERCEL_PROJECT_PRODUCTION_URL || env.VERCEL_URL
      : env.VERCEL_BRANCH_URL || env.VERCEL_URL || env.VERCEL_PROJECT_PRODUCTION_URL
  const given = explicit || vercel?.trim()
  if (!given) return new URL('http://localhost:3000')
  const url = new URL(/^https?:\/\//i.test(given) ? given : `https://${given}`)
  return new URL(url.origin)
}

export function localhostWarning(env: Env = process.env): string | undefined {
  if (env.NEXT_PUBLIC_SITE_URL?.trim() || siteUrl(env).hostname !== 'localhost') return undefined
  return "NEXT_PUBLIC_SITE_URL is not set: canonical links, share cards, the sitemap and robots.txt will name http://localhost:3000; set it to the site's address and build again."
}

export function allowsIndexing(env: Env = process.env): boolean {
  const vercelEnv = env.VERCEL_ENV?.trim()
  return !vercelEnv || vercelEnv === 'production'
}

export function indexingHeaders(env: Env = process.env) {
  if (allowsIndexing(env)) return []
  return [{ source: '/:path*', headers: [{ key: 'X-Robots-Tag', value: 'noindex, nofollow' }] }]
}

export function robotsRules(env: Env = process.env): MetadataRoute.Robots {
  if (!allowsIndexing(env)) return { rules: { userAgent: '*', disallow: '/' } }
  return {
    rules: { userAgent: '*', allow: '/' },
    sitemap: new URL('/sitemap.xml', siteUrl(env)).toString(),
  }
}

const openGraph = {
  type: 'website',
  siteName: site.name,
  locale: 'en_US',
  title,
  description: seo.description,
} satisfies Metadata['openGraph']

export function rootMetadata(env: Env = process.env): Metadata {
  return {
    metadataBase: siteUrl(env),
    title,
    description: seo.description,
    applicationName: site.name,
    openGraph,
    // Next fills the rest of X's card from openGraph and the opengraph-image.
    twitter: { card: 'summary_large_image' },
    robots: allowsIndexing(env) ? undefined : { index: false, follow: false },
  }
}

/** The home page adds its own address (a page's openGraph replaces the layout's whole object). */
export const homeMetadata: Metadata = {
  alternates: { canonical: '/' },
  openGraph: { ...openGraph, url: '/' },
}

/** schema.org JSON-LD for a `<script>`, with `<`, `>`, `&`, U+2028 and U+2029 escaped so no value can close it. */
export function structuredData(env: Env = process.env): string {
  const home = siteUrl(env).toString()
  const about = { name: site.name, url: home, description: seo.description }
  return JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    '@id': `${home}#website`,
    ...about,
    inLanguage: 'en',
    publisher: {
      '@type': 'Organization',
      '@id': `${home}#organization`,
      ...about,
      logo: `${home}icon.svg`,
    },
  }).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
