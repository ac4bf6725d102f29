import { CallToAction } from '@/components/landing/call-to-action'
import { Features } from '@/components/landing/features'
import { Hero } from '@/components/landing/hero'
import { RevealOnScroll } from '@/components/landing/reveal-on-scroll'
import { SiteFooter } from '@/components/landing/site-footer'
import { StructuredData } from '@/components/landing/structured-data'
import { homeMetadata } from '@/lib/seo'

export const metadata = homeMetadata

export default function HomePage() {
  return (
    <>
      <StructuredData />
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
