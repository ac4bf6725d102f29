/**
 * Next sends server actions one at a time and offers no way to give up on
 * one: a post that never gets an answer would hold every later signup on the
 * page. So each action request, which Next sends through the page's `fetch`
 * with a `next-action` header (a detail it does not document:
 * e2e/signup-failures.spec.ts fails if a release changes it), is aborted after
 * a deadline; the form's failure boundary then shows the failure notice.
 */
/** Longer than the server's store timeout (WAITLIST_STORE_TIMEOUT_MS, 8 s by default) plus a slow round trip. */
export const ACTION_DEADLINE_MS = 12_000

export function installActionDeadline(): void {
  const send = window.fetch.bind(window)
  window.fetch = (input, init) => {
    if (!new Headers(init?.headers).has('next-action')) return send(input, init)
    const deadline = new AbortController()
    const reason = new Error(`No answer from the server within ${ACTION_DEADLINE_MS / 1000} s`)
    const timer = setTimeout(() => deadline.abort(reason), ACTION_DEADLINE_MS)
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal
    return send(input, { ...init, signal }).finally(() => clearTimeout(timer))
  }
}
