'use client'

import { useEffect, useState } from 'react'
import { noticeFor, statusText } from '@/lib/waitlist/notice'
import type { WaitlistState } from '@/lib/waitlist/state'
import type { FormTone } from './submit-button'

const tones: Record<FormTone, { ok: string; error: string }> = {
  light: { ok: 'text-emerald-700', error: 'text-red-700' },
  dark: { ok: 'text-white', error: 'text-white' },
}

type WaitlistStatusProps = { state: WaitlistState; tone: FormTone; announceAfterMount: boolean }

/**
 * The outcome as text in the page: the one live region that announces it (the
 * toasts only show it) and what a visitor without JavaScript sees. Always
 * rendered, so the region exists before it has anything to say; each outcome
 * is a new node in it, so two equal outcomes in a row are both read out.
 */
export function WaitlistStatus({ state, tone, announceAfterMount }: WaitlistStatusProps) {
  const mounted = useMountedAfterAFrame(announceAfterMount)
  const outcome = state.status === 'idle' || !mounted ? null : state
  const notice = outcome && noticeFor(outcome)
  const color = notice?.tone === 'destructive' ? tones[tone].error : tones[tone].ok
  return (
    <p role="status" className={`min-h-5 text-sm font-medium ${color}`}>
      {outcome && notice ? <span key={outcome.submissionId}>{statusText(notice)}</span> : null}
    </p>
  )
}

/**
 * A live region mounted with its words already in it is not read out. A form
 * rendered anew after a failure writes its line a frame after mounting, into
 * the region that is there by then.
 */
function useMountedAfterAFrame(wait: boolean): boolean {
  const [mounted, setMounted] = useState(!wait)
  useEffect(() => {
    if (mounted) return
    const frame = requestAnimationFrame(() => setMounted(true))
    return () => cancelAnimationFrame(frame)
  }, [mounted])
  return mounted
}
