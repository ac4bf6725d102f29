/**
 * A page whose deployment is gone (the site was deployed again since it
 * loaded, or it came from another instance built apart) holds an action id
 * the server no longer knows, and so does every later post from it. Once the
 * server has said so, the next signup from either form reloads the page and
 * sends the address from the fresh one.
 */
const RESEND_KEY = 'collably:waitlist-resend'

type Resend = { form: string; email: string }

let deploymentGone = false

/** Called when the server says it does not know the page's action (signup-failure-boundary.tsx). */
export function noteDeploymentGone(): void {
  deploymentGone = true
}

export function isDeploymentGone(): boolean {
  return deploymentGone
}

/** Loads the page afresh, asking it to send `email` from form `form` once it has hydrated. */
export function resendFromFreshPage(form: string, email: string): void {
  try {
    sessionStorage.setItem(RESEND_KEY, JSON.stringify({ form, email } satisfies Resend))
  } catch (error) {
    // Storage off or full: the fresh page still works, the visitor types the address again.
    console.warn('The address could not be kept for the reload', error)
  }
  // Not `reload()`: a page that came from a plain form post would post again. A GET of the same URL.
  window.location.replace(window.location.pathname + window.location.search)
}

/** The address a page that was gone asked this form to send, once; null if none. */
export function takeResend(form: string): string | null {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(RESEND_KEY) ?? 'null')
    if (!isResend(saved) || saved.form !== form) return null
    sessionStorage.removeItem(RESEND_KEY)
    return saved.email
  } catch {
    return null
  }
}

function isResend(value: unknown): value is Resend {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Resend).form === 'string' &&
    typeof (value as Resend).email === 'string'
  )
}
