'use client'

import { ErrorScreen, type PageError } from '@/components/ui/error-pages'

export default function ErrorPage({ error }: { error: PageError }) {
  return <ErrorScreen error={error} />
}
