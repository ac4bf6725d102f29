'use client'

import { useEffect, useState } from 'react'
import { loadSonner, whenSonnerLoads } from './load-sonner'

type Sonner = typeof import('sonner')

/**
 * The page's one `Toaster`, mounted once sonner has loaded: asked for when the
 * browser is first idle after painting, or when a form is focused. Every
 * outcome is in the form's status line too, which is what a screen reader
 * hears, so sonner's region (polite, with no option) is set to
 * `aria-live="off"`: the toast is shown, not read out twice.
 */
export function DeferredToaster() {
  const [sonner, setSonner] = useState<Sonner | null>(null)

  useEffect(() => {
    const stopWaiting = whenSonnerLoads((loaded) => setSonner(loaded))
    const load = () => {
      document.removeEventListener('focusin', onFocus)
      loadSonner().catch((error: unknown) =>
        console.warn('Notifications could not be loaded yet', error),
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
      stopWaiting()
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle)
      else window.clearTimeout(idle)
      document.removeEventListener('focusin', onFocus)
    }
  }, [])

  if (!sonner) return null
  const { Toaster } = sonner
  return (
    <div ref={silenceLiveRegion} className="contents">
      <Toaster position="top-center" richColors closeButton />
    </div>
  )
}

// React never writes the attribute again: sonner passes the same value on every render.
function silenceLiveRegion(wrapper: HTMLDivElement | null): void {
  wrapper?.querySelector('section[aria-live]')?.setAttribute('aria-live', 'off')
}
