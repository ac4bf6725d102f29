'use client'

import { ErrorScreen } from '@/components/error-page/error-screen'
import type { PageError } from '@/components/error-page/log-page-error'

/** Shown in place of a page that throws, inside the root layout; Next's own screen never shows. */
export default function ErrorPage({ error }: { error: PageError }) {
  return <ErrorScreen error={error} />
}
