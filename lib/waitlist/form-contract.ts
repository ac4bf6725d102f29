import { waitlistForms, type WaitlistFormName } from '@/lib/site'

// What the form and the action share, free of any library the browser would load.
export type WaitlistState =
  | { status: 'idle' }
  | { status: 'joined'; submissionId: string }
  | { status: 'already_joined'; submissionId: string }
  | { status: 'error'; submissionId: string; email: string }

export type WaitlistSource = (typeof waitlistForms)[WaitlistFormName]['source']

/** What the forms send as their `source`, one per form record; the server takes no other. */
export const WAITLIST_SOURCES: readonly WaitlistSource[] = Object.values(waitlistForms).map(
  (form) => form.source,
)

/** The raw field, before trimming: room for stray spaces around a long address, no more. */
export const MAX_EMAIL_INPUT_LENGTH = 320

/** For bots only: named like nothing autofill or a password manager fills in. */
export const HONEYPOT_FIELD = 'comments'
