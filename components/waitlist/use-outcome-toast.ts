'use client'

import { useEffect, useRef } from 'react'
import { noticeFor } from '@/lib/waitlist/notice'
import type { WaitlistState } from '@/lib/waitlist/state'
import { showNotice } from './show-notice'

/** Toasts each new outcome once, keyed by its submission id (effects may run twice in development). */
export function useOutcomeToast(state: WaitlistState): void {
  const shown = useRef<string | null>(null)
  useEffect(() => {
    if (state.status === 'idle' || shown.current === state.submissionId) return
    shown.current = state.submissionId
    // The form's status line already says it; a toast that cannot load is only logged.
    showNotice(noticeFor(state)).catch((error: unknown) =>
      console.warn('A notice could not be shown as a toast', error),
    )
  }, [state])
}
