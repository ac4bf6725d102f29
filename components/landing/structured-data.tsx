import { structuredData } from '@/lib/seo'

/** Who runs the site and what it is, for search engines (JSON-LD, escaped by structuredData). */
export function StructuredData() {
  return (
    <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: structuredData() }} />
  )
}
