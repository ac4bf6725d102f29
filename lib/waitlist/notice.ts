import type { WaitlistOutcome } from './state'

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
  alreadyJoined: {
    tone: 'info',
    title: 'Already on the list!',
    description: 'This email is already registered for early access.',
  },
  invalidEmail: {
    tone: 'destructive',
    title: 'Please check your email address',
    description: 'That does not look like a valid email address.',
  },
  rateLimited: {
    tone: 'destructive',
    title: 'Too many attempts',
    description: 'Please try again in a minute.',
  },
  failure: {
    tone: 'destructive',
    title: 'Something went wrong',
    description: 'Please try again later.',
  },
} as const satisfies Record<string, Notice>

export function noticeFor(outcome: WaitlistOutcome): Notice {
  switch (outcome.status) {
    case 'joined':
      return notices.joined
    case 'already_joined':
      return notices.alreadyJoined
    case 'invalid':
      // A refused source only comes from a forged request: it gets the generic answer.
      return outcome.field === 'email' ? notices.invalidEmail : notices.failure
    case 'rate_limited':
      return notices.rateLimited
    case 'error':
      return notices.failure
  }
}

/**
 * A notice as the form's status line reads it: the title as a sentence of its
 * own, then the description ("Something went wrong. Please try again later.").
 * A title that already ends a sentence ("Already on the list!") keeps its mark.
 */
export function statusText({ title, description }: Pick<Notice, 'title' | 'description'>): string {
  const sentence = /[.!?]$/.test(title) ? title : `${title}.`
  return `${sentence} ${description}`
}
