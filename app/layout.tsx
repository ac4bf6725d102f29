import type { Metadata, Viewport } from 'next'
import { geist } from '@/components/brand/typeface'
import { Toaster } from '@/components/waitlist/toaster'
import { rootMetadata } from '@/lib/seo'
import { seo } from '@/lib/site'
import './globals.css'

export const metadata: Metadata = rootMetadata()

export const viewport: Viewport = {
  themeColor: seo.themeColor,
}

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en" className={geist.variable}>
      <body className="bg-white font-sans text-slate-900 antialiased">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 font-medium text-violet-800 focus:not-sr-only focus:fixed focus:top-4 focus:left-4 focus:ring-2 focus:ring-violet-600"
        >
          Skip to main content
        </a>
        {children}
        <Toaster />
      </body>
    </html>
  )
}
