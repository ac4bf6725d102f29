'use client'

import { useEffect } from 'react'
import { notices } from '@/lib/site'
import { MessagePage } from './message-page'

export type PageError = Error & { digest?: string }

/** Shown in place of Next's error screen; a server error's digest matches its server log line. */
export function ErrorScreen({ error }: { error: PageError }) {
  useEffect(() => {
    const digest = error.digest ? ` (server log digest ${error.digest})` : ''
    console.error(`The page could not be shown at ${window.location.pathname}${digest}:`, error)
  }, [error])
  return (
    <MessagePage
      heading={notices.error.title}
      headingSize="text-4xl sm:text-5xl"
      message={notices.error.description}
    />
  )
}
