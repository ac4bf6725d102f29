'use client'

import { useEffect, useState } from 'react'
import { loadSonner } from './load-sonner'

type Sonner = Awaited<ReturnType<typeof loadSonner>>

/**
 * The page's one `Toaster`, mounted once sonner has loaded: when the browser
 * is first idle after the page has painted, or as soon as a visitor focuses a
 * form, whichever comes first. Until then there is nothing to show: every
 * outcome is in the form's status line too.
 */
export function DeferredToaster() {
  const [sonner, setSonner] = useState<Sonner | null>(null)

  useEffect(() => {
    let mounted = true
    const load = () => {
      document.removeEventListener('focusin', onFocus)
      loadSonner().then(
        (loaded) => mounted && setSonner(loaded),
        // The status line carries every outcome; the next notice retries the fetch.
        (error: unknown) => console.warn('Notifications could not be loaded', error),
      )
    }
    const onFocus = (event: FocusEvent) => {
      if (event.target instanceof Element && event.target.closest('form')) load()
    }
    const idle =
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(load, { timeout: 2000 })
        : window.setTimeout(load, 200)
    document.addEventListener('focusin', onFocus)
    return () => {
      mounted = false
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle)
      else window.clearTimeout(idle)
      document.removeEventListener('focusin', onFocus)
    }
  }, [])

  if (!sonner) return null
  const { Toaster } = sonner
  return <Toaster position="top-center" richColors closeButton />
}
