// Next sends actions one at a time and never gives up on one: each action post gets a deadline.
// Longer than the server's store timeout (8 s by default) plus a slow round trip.
export const ACTION_DEADLINE_MS = 12_000

/**
 * Next has no public way to give up on an action: this wraps the page's fetch, which Next sends
 * actions with, and takes every POST for one (Next documents actions as POSTs only; this page
 * sends no other). "gives up on a post that never ends" (e2e/signup-failures.spec.ts) fails
 * first the day a release sends them another way.
 */
export function installActionDeadline(): void {
  const send = window.fetch.bind(window)
  window.fetch = (input, init) => {
    if (init?.method?.toUpperCase() !== 'POST') return send(input, init)
    const deadline = new AbortController()
    const reason = new Error(`No answer from the server within ${ACTION_DEADLINE_MS / 1000} s`)
    const timer = setTimeout(() => deadline.abort(reason), ACTION_DEADLINE_MS)
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal
    return send(input, { ...init, signal }).finally(() => clearTimeout(timer))
  }
}
