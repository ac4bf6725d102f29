'use client'

import { unstable_isUnrecognizedActionError as isUnrecognizedAction } from 'next/navigation'
import { Component, type ReactNode } from 'react'

/** A signup that never got its answer: which one (a fresh form each time) and the address sent. */
export type SignupFailure = { id: string; email: string }

type Props = {
  form: string
  children: (failure: SignupFailure | null, onSend: (email: string) => void) => ReactNode
}

type State = { sent: string; failed: number }

let deploymentGone = false
let failures = 0

/**
 * useActionState rethrows an action that rejects (no connection, an answer
 * that is not the action's, no answer before the deadline, a deployment that
 * no longer knows the action) into the nearest error boundary. This one,
 * around a single form, logs it and renders the form anew, in the failure
 * state with the address the visitor sent; the rest of the page never notices.
 */
export class SignupFailureBoundary extends Component<Props, State> {
  override state: State = { sent: '', failed: 0 }

  static getDerivedStateFromError(): Partial<State> {
    failures += 1
    return { failed: failures }
  }

  override componentDidCatch(error: unknown): void {
    // A deployment since the page loaded: every later post from it would fail the same way.
    deploymentGone ||= isUnrecognizedAction(error)
    const note = deploymentGone
      ? ' The site has been deployed since this page loaded: the next signup reloads it.'
      : ''
    console.error(
      `The ${this.props.form} form's signup failed between the page and the server; the visitor was shown "Something went wrong".${note}`,
      error,
    )
  }

  private readonly onSend = (email: string) => this.setState({ sent: email })

  override render(): ReactNode {
    const { sent, failed } = this.state
    return this.props.children(
      failed ? { id: `failure-${failed}`, email: sent } : null,
      this.onSend,
    )
  }
}

const resendKey = (form: string) => `collably:waitlist-resend:${form}`

/**
 * On a page whose deployment is gone, sends the address from a fresh copy of
 * the page instead (a GET of the same URL, never a repost): true when it did.
 */
export function resendFromFreshPage(form: string, email: string): boolean {
  if (!deploymentGone) return false
  try {
    sessionStorage.setItem(resendKey(form), email)
  } catch {
    // Storage off or full: the fresh page works all the same; the visitor types the address again.
  }
  window.location.replace(window.location.pathname + window.location.search)
  return true
}

/** The address a page whose deployment was gone asked this form to send, once. */
export function takeResend(form: string): string | null {
  try {
    const email = sessionStorage.getItem(resendKey(form))
    sessionStorage.removeItem(resendKey(form))
    return email
  } catch {
    return null
  }
}
