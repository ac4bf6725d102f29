import type { Metadata } from 'next'
import type { Env } from './env'
import { allowsIndexing } from './indexing'
import { seo, site } from './site'
import { resolveSiteUrl } from './site-url'

const openGraph = {
  type: 'website',
  siteName: site.name,
  locale: 'en_US',
  title: seo.title,
  description: seo.description,
} satisfies Metadata['openGraph']

/**
 * What every page says about itself. Relative URLs (the share card, the
 * canonical link) are made absolute against `metadataBase`. The share card's
 * image tags come from app/opengraph-image.tsx and app/twitter-image.tsx.
 */
export function rootMetadata(env: Env = process.env): Metadata {
  return {
    metadataBase: resolveSiteUrl(env),
    title: seo.title,
    description: seo.description,
    applicationName: site.name,
    openGraph,
    twitter: { card: 'summary_large_image', title: seo.title, description: seo.description },
    robots: allowsIndexing(env) ? undefined : { index: false, follow: false },
  }
}

/** The home page adds its own address; the not-found page must not claim it. */
export const homeMetadata: Metadata = {
  alternates: { canonical: '/' },
  // A page's openGraph replaces the layout's whole object, so the rest is repeated.
  openGraph: { ...openGraph, url: '/' },
}
