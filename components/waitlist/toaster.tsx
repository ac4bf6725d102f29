'use client'

import { useEffect, useState } from 'react'
import type { Notice } from '@/lib/site'

const loadSonner = () => import('sonner')

/** A notice as a toast; one that cannot load is only warned of: the status line says it already. */
export function toastNotice({ tone, title, description }: Notice) {
  loadSonner().then(
    ({ toast }) => toast[tone](title, { description }),
    (error: unknown) => console.warn('A notice could not be shown as a toast', error),
  )
}

/** Loaded when a visitor turns to a form; its live region is silenced, as the form's status line speaks. */
export function Toaster() {
  const [sonner, setSonner] = useState<typeof import('sonner')>()

  useEffect(() => {
    if (sonner) return
    const events = ['focusin', 'submit'] as const
    const onUse = (event: Event) => {
      if (!(event.target instanceof Element) || !event.target.closest('form')) return
      loadSonner().then(setSonner, (error: unknown) =>
        console.warn('Notifications could not be loaded yet', error),
      )
    }
    events.forEach((name) => document.addEventListener(name, onUse, true))
    return () => events.forEach((name) => document.removeEventListener(name, onUse, true))
  }, [sonner])

  if (!sonner) return null
  return (
    <div
      ref={(wrapper) => {
        wrapper?.querySelector('section[aria-live]')?.setAttribute('aria-live', 'off')
      }}
      className="contents"
    >
      <sonner.Toaster position="top-center" richColors closeButton />
    </div>
  )
}
