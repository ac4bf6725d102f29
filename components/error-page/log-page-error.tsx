'use client'

import { useEffect } from 'react'

/** What Next hands an error page: the error, with a digest when it was thrown on the server. */
export type PageError = Error & { digest?: string }

/** Logs, in the browser, the error a page could not be shown for; a server error's digest matches its line in the server's log. */
export function LogPageError({ error }: { error: PageError }) {
  useEffect(() => {
    const digest = error.digest ? ` (server log digest ${error.digest})` : ''
    console.error(`The page could not be shown at ${window.location.pathname}${digest}:`, error)
  }, [error])
  return null
}
