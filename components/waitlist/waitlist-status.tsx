import { noticeFor } from '@/lib/waitlist/notice'
import type { WaitlistState } from '@/lib/waitlist/state'
import type { FormTone } from './submit-button'

const tones: Record<FormTone, { ok: string; error: string }> = {
  light: { ok: 'text-emerald-700', error: 'text-red-700' },
  dark: { ok: 'text-white', error: 'text-white' },
}

/**
 * The outcome as text in the page: what a screen reader hears and what a
 * visitor without JavaScript (no toasts) sees. Always rendered, so the live
 * region exists before it has anything to say.
 */
export function WaitlistStatus({ state, tone }: { state: WaitlistState; tone: FormTone }) {
  const notice = state.status === 'idle' ? null : noticeFor(state)
  const color = notice?.tone === 'destructive' ? tones[tone].error : tones[tone].ok
  return (
    <p role="status" className={`min-h-5 text-sm font-medium ${color}`}>
      {notice ? `${notice.title} ${notice.description}` : null}
    </p>
  )
}
