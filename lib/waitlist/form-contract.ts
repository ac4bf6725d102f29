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

export type Notice = {
  tone: 'success' | 'info' | 'destructive'
  title: string
  description: string
}

export const notices = {
  joined: {
    tone: 'success',
    title: 'Welcome to the waitlist!',
    description: "You'll be among the first to experience the product.",
  },
  already_joined: {
    tone: 'info',
    title: 'Already on the list!',
    description: 'This email is already registered for early access.',
  },
  error: {
    tone: 'destructive',
    title: 'Something went wrong',
    description: 'Please try again later.',
  },
} as const satisfies Record<Exclude<WaitlistState, { status: 'idle' }>['status'], Notice>

/** A notice as the status line reads it: "Something went wrong. Please try again later." */
export function statusText({ title, description }: Notice): string {
  return `${/[.!?]$/.test(title) ? title : `${title}.`} ${description}`
}
