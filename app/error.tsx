'use client'

import { ErrorScreen, type PageError } from '@/components/ui/error-pages'

/** Shown in place of a page that throws, inside the root layout; Next's own screen never shows. */
export default function ErrorPage({ error }: { error: PageError }) {
  return <ErrorScreen error={error} />
}
