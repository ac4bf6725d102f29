import { serializeJsonLd, structuredData } from '@/lib/structured-data'

/** Who runs the site and what it is, for search engines (JSON-LD). */
export function StructuredData() {
  return (
    <script
      type="application/ld+json"
      // Escaped by serializeJsonLd, so no value can close the script.
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(structuredData()) }}
    />
  )
}
