'use client'

import { useEffect, useState } from 'react'

type Sonner = typeof import('sonner')

/**
 * The page's one `Toaster`, fetched after the first paint: when the browser
 * is first idle, or when a form is focused (tried again at each focus until
 * it has loaded). A toast made before it mounts is shown when it does (sonner
 * replays them). Every outcome is also in its form's status line, which is
 * what a screen reader hears, so the toasts' own live region is silenced:
 * shown once, not read out twice.
 */
export function Toaster() {
  const [sonner, setSonner] = useState<Sonner>()

  useEffect(() => {
    let done = false
    const load = () =>
      import('sonner').then(
        (loaded) => {
          if (done) return
          done = true
          document.removeEventListener('focusin', onFocus)
          setSonner(loaded)
        },
        (error: unknown) => console.warn('Notifications could not be loaded yet', error),
      )
    const onFocus = (event: FocusEvent) => {
      if (event.target instanceof Element && event.target.closest('form')) void load()
    }
    document.addEventListener('focusin', onFocus)
    if ('requestIdleCallback' in window) requestIdleCallback(load, { timeout: 2000 })
    else setTimeout(load, 200)
    return () => {
      done = true
      document.removeEventListener('focusin', onFocus)
    }
  }, [])

  if (!sonner) return null
  return (
    <div
      ref={(wrapper) =>
        wrapper?.querySelector('section[aria-live]')?.setAttribute('aria-live', 'off')
      }
      className="contents"
    >
      <sonner.Toaster position="top-center" richColors closeButton />
    </div>
  )
}
