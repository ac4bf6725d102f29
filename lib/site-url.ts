/**
 * The site's public origin, for everything that must be an absolute URL:
 * canonical links, share cards, the sitemap, robots.txt, structured data.
 *
 * Read at build time (pages are prerendered), which is where Vercel sets its
 * variables too: each environment is built on its own.
 */
import type { Env } from './env'

export const SITE_URL_VAR = 'NEXT_PUBLIC_SITE_URL'
export const LOCAL_SITE_URL = 'http://localhost:3000'

function hostUrl(name: string, env: Env): URL | undefined {
  const host = env[name]?.trim()
  // Vercel's variables carry a bare host name, no scheme.
  return host ? new URL(`https://${host}`) : undefined
}

/**
 * `NEXT_PUBLIC_SITE_URL` when set; else, on Vercel, the deployment's own URL
 * for previews (so a preview's share card shows that preview) and the
 * production domain for production; else localhost.
 */
export function resolveSiteUrl(env: Env = process.env): URL {
  const explicit = env[SITE_URL_VAR]?.trim()
  if (explicit) {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(explicit) ? explicit : `https://${explicit}`
    let url: URL
    try {
      url = new URL(withScheme)
    } catch {
      throw new Error(`${SITE_URL_VAR} is not a URL: "${explicit}".`)
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new Error(`${SITE_URL_VAR} must be an http(s) URL, not "${explicit}".`)
    }
    return new URL(url.origin)
  }
  const vercel =
    env.VERCEL_ENV === 'production'
      ? (hostUrl('VERCEL_PROJECT_PRODUCTION_URL', env) ?? hostUrl('VERCEL_URL', env))
      : (hostUrl('VERCEL_BRANCH_URL', env) ??
        hostUrl('VERCEL_URL', env) ??
        hostUrl('VERCEL_PROJECT_PRODUCTION_URL', env))
  return vercel ? new URL(vercel.origin) : new URL(LOCAL_SITE_URL)
}

/** An absolute URL on the site, e.g. `absoluteUrl('/sitemap.xml')`. */
export function absoluteUrl(pathname: string, env: Env = process.env): string {
  return new URL(pathname, resolveSiteUrl(env)).toString()
}
