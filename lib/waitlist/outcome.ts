/**
 * What the waitlist action answers, and the one notice each answer shows: as
 * a toast, and as the words in the form's status line. Three notices, no
 * other: a refusal of any kind (a limit, an address the server cannot take,
 * a failure on the way) is "Something went wrong".
 */
export type WaitlistState =
  | { status: 'idle' }
  | { status: 'joined'; submissionId: string }
  | { status: 'already_joined'; submissionId: string }
  | { status: 'error'; submissionId: string; email: string }

export type WaitlistOutcome = Exclude<WaitlistState, { status: 'idle' }>

export const initialWaitlistState: WaitlistState = { status: 'idle' }

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
} as const satisfies Record<WaitlistOutcome['status'], Notice>

/** The address to put back in the field: kept after a failure, cleared after a welcome or a duplicate. */
export function emailToKeep(state: WaitlistState): string {
  return state.status === 'error' ? state.email : ''
}

/** A notice as the status line reads it: "Something went wrong. Please try again later." */
export function statusText({ title, description }: Notice): string {
  return `${/[.!?]$/.test(title) ? title : `${title}.`} ${description}`
}
