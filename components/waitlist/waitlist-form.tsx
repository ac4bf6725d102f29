'use client'

import { useActionState, useEffect, useId, useRef, type FormEvent } from 'react'
import { waitlistForms } from '@/lib/site'
import { joinWaitlist } from '@/lib/waitlist/actions'
import { MAX_EMAIL_INPUT_LENGTH } from '@/lib/waitlist/submission'
import { emailToKeep, initialWaitlistState, type WaitlistState } from '@/lib/waitlist/state'
import { HoneypotField } from './honeypot-field'
import { SignupFailureBoundary, type SignupFailure } from './signup-failure-boundary'
import { isDeploymentGone, resendFromFreshPage, takeResend } from './stale-deployment'
import { SubmitButton, type FormTone } from './submit-button'
import { useOutcomeToast } from './use-outcome-toast'
import { WaitlistStatus } from './waitlist-status'

type WaitlistFormProps = {
  variant: 'hero' | 'cta'
  tone?: FormTone
  className?: string
}

type SignupFormProps = WaitlistFormProps & {
  /** Set when the form is rendered anew after a signup that failed on the way. */
  failure: SignupFailure | null
  onSend: (email: string) => void
}

const fieldTones: Record<FormTone, string> = {
  light:
    'border-slate-300 bg-white text-slate-900 placeholder:text-slate-500 focus:border-violet-600 focus:ring-violet-200',
  dark: 'border-white/30 bg-white/10 text-white placeholder:text-violet-100 focus:border-white focus:ring-white/40',
}

const failedState = ({ id, email }: SignupFailure): WaitlistState => ({
  status: 'error',
  submissionId: id,
  email,
})

/**
 * A waitlist form, as the page's sections use it: every way its post can fail
 * on the way to the server or back ends in the failure notice for this form
 * alone, with the address kept and the page intact.
 */
export function WaitlistForm(props: WaitlistFormProps) {
  return (
    <SignupFailureBoundary form={props.variant}>
      {(failure, onSend) => (
        <SignupForm key={failure?.id} {...props} failure={failure} onSend={onSend} />
      )}
    </SignupFailureBoundary>
  )
}

/**
 * The form itself. It posts straight to the server action, so it works without
 * JavaScript and before hydration (the browser's own post, answered with the
 * page and its outcome). The outcome comes back as a toast and as text in the page.
 */
function SignupForm({ variant, tone = 'light', className = '', failure, onSend }: SignupFormProps) {
  const copy = waitlistForms[variant]
  const [state, formAction, pending] = useActionState(
    joinWaitlist,
    failure ? failedState(failure) : initialWaitlistState,
  )
  useOutcomeToast(state)
  const emailId = useId()
  const honeypotId = useId()
  const email = useRef<HTMLInputElement>(null)

  // The address a page whose deployment was gone asked this one to send: the visitor's click
  // already asked for it. Focusing the field brings the form back into view.
  useEffect(() => {
    const field = email.current
    const address = takeResend(variant)
    if (!field?.form || address === null) return
    field.value = address
    field.focus()
    field.form.requestSubmit()
  }, [variant])

  // Only reads the address, except on a page whose deployment is gone: no action would reach it.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const address = String(new FormData(event.currentTarget).get('email') ?? '')
    onSend(address)
    if (!isDeploymentGone()) return
    event.preventDefault()
    resendFromFreshPage(variant, address)
  }

  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      className={`@container relative flex flex-col gap-3 ${className}`}
    >
      <input type="hidden" name="source" value={copy.source} />
      <HoneypotField id={honeypotId} />
      <div className="flex flex-col gap-3 @md:flex-row">
        <label htmlFor={emailId} className="sr-only">
          {waitlistForms.emailLabel}
        </label>
        <input
          ref={email}
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
      <WaitlistStatus state={state} tone={tone} announceAfterMount={failure !== null} />
    </form>
  )
}
