/**
 * Next sends server actions one at a time and offers no way to give up on
 * one: a post that never gets an answer would hold every later signup on the
 * page, in both forms, for as long as the browser keeps the connection open.
 * So each action request gets a deadline, after which it is aborted: the
 * action rejects, and the form's failure boundary shows the failure notice.
 *
 * It relies on one detail Next does not document: an action is sent through
 * the page's `fetch`, looked up when it is sent, with a `next-action` header.
 * tests/action-deadline.test.ts fails if a Next release changes the header.
 */
export const NEXT_ACTION_HEADER = 'next-action'

/** Longer than the server's store timeout (WAITLIST_STORE_TIMEOUT_MS, 8 s by default) plus a slow round trip. */
export const ACTION_DEADLINE_MS = 12_000

export class ActionDeadlineError extends Error {
  override name = 'ActionDeadlineError'
}

type Scope = { fetch: typeof fetch }

const installed = new WeakSet<Scope>()

/** Gives every server action sent through `scope.fetch` (the page's, by default) its deadline. Once per scope. */
export function installActionDeadline(scope: Scope = window): void {
  if (installed.has(scope)) return
  installed.add(scope)
  const send = scope.fetch.bind(scope)
  scope.fetch = (input, init) => {
    if (!new Headers(init?.headers).has(NEXT_ACTION_HEADER)) return send(input, init)
    const deadline = new AbortController()
    const timer = setTimeout(
      () =>
        deadline.abort(
          new ActionDeadlineError(
            `No answer from the server within ${ACTION_DEADLINE_MS / 1000} s`,
          ),
        ),
      ACTION_DEADLINE_MS,
    )
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal
    return send(input, { ...init, signal }).finally(() => clearTimeout(timer))
  }
}
