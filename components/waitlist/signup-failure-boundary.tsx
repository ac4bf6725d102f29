'use client'

import { unstable_isUnrecognizedActionError as isUnrecognizedAction } from 'next/navigation'
import { Component, type ReactNode } from 'react'
import { noteDeploymentGone } from './stale-deployment'

/** A signup that never got its answer: which one (for a fresh form each time) and the address sent. */
export type SignupFailure = { id: string; email: string }

type Props = {
  form: string
  children: (failure: SignupFailure | null, onSend: (email: string) => void) => ReactNode
}

type State = { sent: string; failed: { id: string } | null }

let failures = 0

/**
 * useActionState rethrows an action that rejects (no connection, an answer
 * that is not the action's, no answer before the deadline, a deployment that
 * no longer knows it) into the nearest error boundary, and leaves that form's
 * hook unusable. This one, around a single form, logs the failure and renders
 * the form anew: a fresh hook, in the failure state, with the address the
 * visitor sent. The rest of the page, the other form included, never notices.
 */
export class SignupFailureBoundary extends Component<Props, State> {
  override state: State = { sent: '', failed: null }

  static getDerivedStateFromError(): Partial<State> {
    failures += 1
    return { failed: { id: `failure-${failures}` } }
  }

  override componentDidCatch(error: unknown): void {
    // The page's deployment is gone: the server no longer knows the action it holds.
    const redeployed = isUnrecognizedAction(error)
    if (redeployed) noteDeploymentGone()
    const note = redeployed
      ? ' The site has been deployed again since this page loaded: the next signup reloads it.'
      : ''
    console.error(
      `The ${this.props.form} form's signup failed between the page and the server; the visitor was shown "Something went wrong".${note}`,
      error,
    )
  }

  private readonly onSend = (email: string) => this.setState({ sent: email })

  override render(): ReactNode {
    const { sent, failed } = this.state
    return this.props.children(failed && { id: failed.id, email: sent }, this.onSend)
  }
}
