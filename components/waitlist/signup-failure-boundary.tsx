'use client'

import { unstable_isUnrecognizedActionError as isUnrecognizedAction } from 'next/navigation'
import { Component, type ReactNode } from 'react'
import { notices } from '@/lib/site'

/** A post that got no answer: the address it sent, for the form rendered anew. */
export type SignupFailure = { email: string }

type Props = {
  form: string
  children: (failure: SignupFailure | null, onSend: (email: string) => void) => ReactNode
}

type State = { sent: string; failed: boolean }

let deploymentGone = false

/** Catches the post useActionState rethrows: the form mounts anew, failed, with the address. */
export class SignupFailureBoundary extends Component<Props, State> {
  override state: State = { sent: '', failed: false }

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true }
  }

  override componentDidCatch(error: unknown): void {
    // Every later post from a page whose deployment is gone fails alike. next/navigation marks
    // this test unstable: the redeploy test (e2e/signup-failures.spec.ts) fails first on a change.
    if (isUnrecognizedAction(error)) deploymentGone = true
    const note = deploymentGone
      ? ' The site has been deployed since this page loaded: the next signup reloads it.'
      : ''
    console.error(
      `The ${this.props.form} form's signup failed between the page and the server; the visitor was shown "${notices.error.title}".${note}`,
      error,
    )
  }

  private readonly onSend = (email: string) => this.setState({ sent: email })

  override render(): ReactNode {
    const { sent, failed } = this.state
    return this.props.children(failed ? { email: sent } : null, this.onSend)
  }
}

const resendKey = (form: string) => `collably:waitlist-resend:${form}`

/** On a page whose deployment is gone, sends the address from a fresh copy of it (a GET, never a repost). */
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

export function takeResend(form: string): string | null {
  try {
    const email = sessionStorage.getItem(resendKey(form))
    sessionStorage.removeItem(resendKey(form))
    return email
  } catch {
    return null
  }
}
