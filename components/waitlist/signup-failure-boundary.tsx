'use client'

import { Component, type ReactNode } from 'react'
import { isDeploymentGone } from './stale-deployment'

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
 * that is not the action's, a deployment that no longer knows it) into the
 * nearest error boundary, and leaves that form's hook unusable. This one, around
 * a single form, logs the failure and renders the form anew: a fresh hook, in
 * the spec's failure state, with the address the visitor sent. The rest of the
 * page, the other form included, never notices.
 */
export class SignupFailureBoundary extends Component<Props, State> {
  override state: State = { sent: '', failed: null }

  static getDerivedStateFromError(): Partial<State> {
    failures += 1
    return { failed: { id: `failure-${failures}` } }
  }

  override componentDidCatch(error: unknown): void {
    const redeployed = isDeploymentGone()
      ? ' The site has been deployed again since this page loaded: the next signup reloads it.'
      : ''
    console.error(
      `The ${this.props.form} form's signup failed between the page and the server; the visitor was shown "Something went wrong".${redeployed}`,
      error,
    )
  }

  private readonly onSend = (email: string) => this.setState({ sent: email })

  override render(): ReactNode {
    const { sent, failed } = this.state
    return this.props.children(failed && { id: failed.id, email: sent }, this.onSend)
  }
}
