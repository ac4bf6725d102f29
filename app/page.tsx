import { CallToAction } from '@/components/landing/call-to-action'
import { Features } from '@/components/landing/features'
import { Hero } from '@/components/landing/hero'
import { RevealOnScroll } from '@/components/landing/reveal-on-scroll'
import { SiteFooter } from '@/components/landing/site-footer'
import { homeMetadata, structuredData } from '@/lib/seo'

export const metadata = homeMetadata

export default function HomePage() {
  return (
    <>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: structuredData() }} />
      <main id="main" tabIndex={-1} className="outline-none">
        <Hero />
        <Features />
        <CallToAction />
      </main>
      <SiteFooter />
      <RevealOnScroll />
    </>
  )
}
