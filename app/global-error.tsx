'use client'

import { geist } from '@/components/brand/typeface'
import { ErrorScreen, type PageError } from '@/components/ui/error-screen'
import { notices, site } from '@/lib/site'
import './globals.css'

/** Shown when the root layout itself throws: it replaces the layout, so it brings its own document. */
export default function GlobalError({ error }: { error: PageError }) {
  return (
    <html lang="en" className={geist.variable}>
      <head>
        <title>{`${notices.error.title} | ${site.name}`}</title>
        <meta name="robots" content="noindex" />
      </head>
      <body className="bg-white font-sans text-slate-900 antialiased">
        <ErrorScreen error={error} />
      </body>
    </html>
  )
}
