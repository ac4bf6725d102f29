// Next never gives up on an action; this outlasts the store's timeout (8 s) and a slow round trip.
export const ACTION_DEADLINE_MS = 12_000

/**
 * No public way exists: Next sends actions with the page's fetch, as POSTs (this page sends no
 * other). "gives up on a post that never ends" (e2e/signup-failures.spec.ts) fails first if that changes.
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
