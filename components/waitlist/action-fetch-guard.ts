/**
 * Next's router sends server actions one at a time, through `fetch`, and
 * offers no way to give up on one: a post that never gets an answer would hold
 * every later signup on the page, in both forms, for as long as the browser
 * keeps the connection open. So every request that carries Next's action
 * header gets a deadline, after which it is aborted and rejected, and an
 * answer that is not a success is rejected with its status, which Next's own
 * error ("An unexpected response was received from the server.") leaves out.
 * The form's failure boundary logs either and shows the failure notice.
 */
import { noteDeploymentGone } from './stale-deployment'

const ACTION_HEADER = 'next-action'
// Next's answer to an action id it does not know: noted here, then left for Next to turn into its error.
const ACTION_NOT_FOUND_HEADER = 'x-nextjs-action-not-found'

/** Longer than the server's store timeout (WAITLIST_STORE_TIMEOUT_MS, 8 s by default) plus a slow round trip. */
export const ACTION_DEADLINE_MS = 12_000

export class SignupRequestError extends Error {
  override name = 'SignupRequestError'
}

let guarded = false

export function guardActionFetches(): void {
  if (guarded || typeof window === 'undefined') return
  guarded = true
  const send = window.fetch.bind(window)
  window.fetch = (input, init) =>
    new Headers(init?.headers).has(ACTION_HEADER)
      ? sendAction(send, input, init)
      : send(input, init)
}

async function sendAction(
  send: typeof fetch,
  input: RequestInfo | URL,
  init: RequestInit | undefined,
): Promise<Response> {
  const deadline = new AbortController()
  const timer = window.setTimeout(
    () =>
      deadline.abort(
        new SignupRequestError(`No answer from the server within ${ACTION_DEADLINE_MS / 1000} s`),
      ),
    ACTION_DEADLINE_MS,
  )
  try {
    const response = await send(input, { ...init, signal: deadline.signal })
    if (response.headers.get(ACTION_NOT_FOUND_HEADER) === '1') noteDeploymentGone()
    else if (!response.ok) {
      const type = response.headers.get('content-type') ?? 'no content type'
      throw new SignupRequestError(`The server answered ${response.status} (${type})`)
    }
    return response
  } finally {
    window.clearTimeout(timer)
  }
}
