'use client'

import { useEffect } from 'react'

/** The not-found page is static: the path a visitor asked for is only known in the browser. */
export function LogNotFound() {
  useEffect(() => {
    console.error(
      `404 Error: User attempted to access non-existent route: ${window.location.pathname}`,
    )
  }, [])
  return null
}
