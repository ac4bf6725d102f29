import type { Env } from './env'
import { seo, site } from './site'
import { resolveSiteUrl } from './site-url'

/** schema.org `Organization` and `WebSite` for `/`, linked by `@id` so search engines read them as one entity. */
export function structuredData(env: Env = process.env) {
  const home = resolveSiteUrl(env).toString()
  const organization = `${home}#organization`
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'Organization',
        '@id': organization,
        name: site.name,
        url: home,
        logo: new URL('/icon.svg', home).toString(),
        description: seo.description,
      },
      {
        '@type': 'WebSite',
        '@id': `${home}#website`,
        name: site.name,
        url: home,
        description: seo.description,
        inLanguage: 'en',
        publisher: { '@id': organization },
      },
    ],
  }
}

/**
 * JSON for a `<script type="application/ld+json">`. `JSON.stringify` leaves
 * `<` as is, so a value containing `</script>` would end the script early:
 * `<`, `>` and `&` become JSON escapes, which parse back to the same text.
 * So do U+2028 and U+2029, which some parsers take for line ends.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
