import type { MetadataRoute } from 'next'
import type { Env } from './env'
import { absoluteUrl } from './site-url'

/**
 * Whether search engines may index this build. Vercel builds production and
 * each preview separately and sets `VERCEL_ENV` for the build, so a preview
 * says noindex everywhere and its robots.txt disallows everything. Off
 * Vercel (`VERCEL_ENV` unset) the site is indexable.
 */
export function allowsIndexing(env: Env = process.env): boolean {
  const vercelEnv = env.VERCEL_ENV?.trim()
  return !vercelEnv || vercelEnv === 'production'
}

export const NOINDEX = 'noindex, nofollow'

/** Response headers for next.config.ts: on a preview every response, pages and files alike, says noindex. */
export function indexingHeaders(
  env: Env = process.env,
): { source: string; headers: { key: string; value: string }[] }[] {
  if (allowsIndexing(env)) return []
  return [{ source: '/:path*', headers: [{ key: 'X-Robots-Tag', value: NOINDEX }] }]
}

export function robotsRules(env: Env = process.env): MetadataRoute.Robots {
  if (!allowsIndexing(env)) return { rules: { userAgent: '*', disallow: '/' } }
  return {
    rules: { userAgent: '*', allow: '/' },
    sitemap: absoluteUrl('/sitemap.xml', env),
  }
}
