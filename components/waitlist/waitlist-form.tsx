'use client'

import { useActionState, useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { everyForm, notices, statusText, waitlistForms, type WaitlistFormName } from '@/lib/site'
import { joinWaitlist } from '@/lib/waitlist/actions'
import { HONEYPOT_FIELD, MAX_EMAIL_INPUT_LENGTH } from '@/lib/waitlist/form-contract'
import {
  resendFromFreshPage,
  SignupFailureBoundary,
  takeResend,
  type SignupFailure,
} from './signup-failure-boundary'
import { SubmitButton, type FormTone } from './submit-button'
import { toastNotice } from './toaster'

type WaitlistFormProps = { form: WaitlistFormName; tone?: FormTone; className?: string }

const fieldTones: Record<FormTone, string> = {
  light:
    'border-slate-300 bg-white text-slate-900 placeholder:text-slate-500 focus:border-violet-600 focus:ring-violet-200',
  dark: 'border-white/30 bg-white/10 text-white placeholder:text-violet-100 focus:border-white focus:ring-white/40',
}

function statusColour(tone: FormTone, failed: boolean): string {
  if (tone === 'dark') return 'text-white'
  return failed ? 'text-red-700' : 'text-emerald-700'
}

export function WaitlistForm(props: WaitlistFormProps) {
  return (
    <SignupFailureBoundary form={props.form}>
      {(failure, onSend) => <SignupForm {...props} failure={failure} onSend={onSend} />}
    </SignupFailureBoundary>
  )
}

type SignupFormProps = WaitlistFormProps & {
  failure: SignupFailure | null
  onSend: (email: string) => void
}

/** Posts straight to the server action, so it works before hydration and without JavaScript. */
function SignupForm({ form, tone = 'light', className = '', failure, onSend }: SignupFormProps) {
  const copy = waitlistForms[form]
  const [state, formAction, pending] = useActionState(
    joinWaitlist,
    // A form rendered anew per failure: one id serves each.
    failure
      ? { status: 'error', submissionId: 'unanswered', email: failure.email }
      : { status: 'idle' },
  )
  const toasted = useRef<string>(undefined)
  const [dismissed, setDismissed] = useState<string>()
  // A live region mounted with its words in it is not read out: a form rendered anew writes them a frame later.
  const [announced, setAnnounced] = useState(!failure)
  const emailId = useId()
  const email = useRef<HTMLInputElement>(null)
  const outcome =
    state.status !== 'idle' && !pending && announced && state.submissionId !== dismissed
      ? state
      : null
  const dismiss = () => {
    if (state.status !== 'idle') setDismissed(state.submissionId)
  }

  useEffect(() => {
    if (state.status === 'idle' || toasted.current === state.submissionId) return
    toasted.current = state.submissionId
    toastNotice(notices[state.status])
  }, [state])

  useEffect(() => {
    if (announced) return
    const frame = requestAnimationFrame(() => setAnnounced(true))
    return () => cancelAnimationFrame(frame)
  }, [announced])

  // The address a page whose deployment was gone asked this fresh one to send: the visitor already pressed.
  useEffect(() => {
    const field = email.current
    const address = takeResend(form)
    if (!field?.form || address === null) return
    field.value = address
    field.focus()
    field.form.requestSubmit()
  }, [form])

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // One post at a time: a press while one is under way sends nothing.
    if (pending) {
      event.preventDefault()
      return
    }
    dismiss()
    const address = String(new FormData(event.currentTarget).get('email') ?? '')
    onSend(address)
    if (resendFromFreshPage(form, address)) event.preventDefault()
  }

  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      onInvalidCapture={dismiss}
      className={`@container relative flex flex-col gap-3 ${className}`}
    >
      <input type="hidden" name="source" value={copy.source} />
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        {/* For bots only: out of sight, out of the tab order, and marked for password managers to leave alone. */}
        <input
          type="text"
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          data-1p-ignore
          data-lpignore="true"
          data-bwignore
          data-form-type="other"
        />
      </div>
      <div className="flex flex-col gap-3 @md:flex-row">
        <label htmlFor={emailId} className="sr-only">
          {everyForm.emailLabel}
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
          // React resets the form after each action: this puts the address back after a failure.
          defaultValue={state.status === 'error' ? state.email : ''}
          // Focused into view with an outcome (a post without JavaScript), its status line too (scroll margin).
          autoFocus={state.status !== 'idle'}
          onChange={dismiss}
          className={`h-12 w-full min-w-0 scroll-mb-44 rounded-xl border px-4 text-base shadow-sm transition-colors outline-none focus:ring-4 @md:scroll-mb-20 ${fieldTones[tone]}`}
        />
        <SubmitButton pending={pending} copy={copy} tone={tone} />
      </div>
      <p className={`text-sm ${tone === 'dark' ? 'text-violet-100' : 'text-slate-600'}`}>
        {everyForm.promise}
      </p>
      <p
        role="status"
        className={`min-h-5 text-sm font-medium ${statusColour(tone, outcome?.status === 'error')}`}
      >
        {outcome ? (
          <span key={outcome.submissionId}>{statusText(notices[outcome.status])}</span>
        ) : null}
      </p>
    </form>
  )
}
