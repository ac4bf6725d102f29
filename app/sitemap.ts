import type { MetadataRoute } from 'next'
import { siteUrl } from '@/lib/seo'

/** The one page there is; the not-found page is never listed. */
export default function sitemap(): MetadataRoute.Sitemap {
  return [{ url: siteUrl().toString(), changeFrequency: 'monthly', priority: 1 }]
}
