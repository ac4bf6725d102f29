'use client'

import { useActionState, useId } from 'react'
import { waitlistForms } from '@/lib/site'
import { joinWaitlist } from '@/lib/waitlist/actions'
import { MAX_EMAIL_INPUT_LENGTH } from '@/lib/waitlist/limits'
import { emailToKeep, initialWaitlistState } from '@/lib/waitlist/state'
import { holdEarlySubmit } from './hydration-mark'
import { HoneypotField } from './honeypot-field'
import { SubmitButton, type FormTone } from './submit-button'
import { useOutcomeToast } from './use-outcome-toast'
import { WaitlistStatus } from './waitlist-status'

type WaitlistFormProps = { variant: 'hero' | 'cta'; tone?: FormTone; className?: string }

const fieldTones: Record<FormTone, string> = {
  light:
    'border-slate-300 bg-white text-slate-900 placeholder:text-slate-500 focus:border-violet-600 focus:ring-violet-200',
  dark: 'border-white/30 bg-white/10 text-white placeholder:text-violet-100 focus:border-white focus:ring-white/40',
}

/**
 * A waitlist form. It posts straight to the server action, so it works without
 * JavaScript; sent before hydration, it waits for it (early-submit-holder.tsx).
 * The outcome comes back as a toast and as text in the page.
 */
export function WaitlistForm({ variant, tone = 'light', className = '' }: WaitlistFormProps) {
  const copy = waitlistForms[variant]
  const [state, formAction, pending] = useActionState(joinWaitlist, initialWaitlistState)
  useOutcomeToast(state)
  const emailId = useId()
  const honeypotId = useId()

  return (
    <form
      action={formAction}
      {...holdEarlySubmit}
      className={`@container relative flex flex-col gap-3 ${className}`}
    >
      <input type="hidden" name="source" value={copy.source} />
      <HoneypotField id={honeypotId} />
      <div className="flex flex-col gap-3 @md:flex-row">
        <label htmlFor={emailId} className="sr-only">
          {waitlistForms.emailLabel}
        </label>
        <input
          id={emailId}
          type="email"
          name="email"
          required
          autoComplete="email"
          maxLength={MAX_EMAIL_INPUT_LENGTH}
          placeholder={copy.placeholder}
          // React resets the form after each action: this puts the address back after an error.
          defaultValue={emailToKeep(state)}
          className={`h-12 w-full min-w-0 rounded-xl border px-4 text-base shadow-sm transition-colors outline-none focus:ring-4 ${fieldTones[tone]}`}
        />
        <SubmitButton
          pending={pending}
          label={copy.submitLabel}
          busyLabel={copy.busyLabel}
          tone={tone}
        />
      </div>
      <p className={`text-sm ${tone === 'dark' ? 'text-violet-100' : 'text-slate-600'}`}>
        {waitlistForms.promise}
      </p>
      <WaitlistStatus state={state} tone={tone} />
    </form>
  )
}
