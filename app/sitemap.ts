import type { MetadataRoute } from 'next'
import { absoluteUrl } from '@/lib/site-url'

/** The one page there is; the not-found page is never listed. */
export default function sitemap(): MetadataRoute.Sitemap {
  return [{ url: absoluteUrl('/'), changeFrequency: 'monthly', priority: 1 }]
}
