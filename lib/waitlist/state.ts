/**
 * What the waitlist action answers. Every expected outcome is a value of this
 * union; the client maps it to a notice and never sees a database message.
 */
export type WaitlistState =
  | { status: 'idle' }
  | { status: 'joined'; submissionId: string }
  | { status: 'already_joined'; submissionId: string }
  | { status: 'invalid'; submissionId: string; email: string; field: 'email' | 'source' }
  | { status: 'rate_limited'; submissionId: string; email: string }
  | { status: 'error'; submissionId: string; email: string }

export type WaitlistOutcome = Exclude<WaitlistState, { status: 'idle' }>

export const initialWaitlistState: WaitlistState = { status: 'idle' }

/** The address to put back in the field: kept after every outcome but a welcome or a duplicate, which clear it. */
export function emailToKeep(state: WaitlistState): string {
  return 'email' in state ? state.email : ''
}
