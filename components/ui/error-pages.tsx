'use client'

import { useEffect } from 'react'
import { errorPage } from '@/lib/site'
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
      heading={errorPage.title}
      headingSize="text-4xl sm:text-5xl"
      message={errorPage.message}
    />
  )
}

/** The not-found page is static: the path a visitor asked for is only known in the browser. */
export function LogNotFound() {
  useEffect(() => {
    console.error(
      `404 Error: User attempted to access non-existent route: ${window.location.pathname}`,
    )
  }, [])
  return null
}
