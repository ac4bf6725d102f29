'use client'

import { guardActionFetches } from './action-fetch-guard'
import { SignupFailureBoundary } from './signup-failure-boundary'
import { SignupForm, type SignupFormProps } from './signup-form'

// Before hydration, so no signup is ever sent without its deadline.
guardActionFetches()

/**
 * A waitlist form, as the page's sections use it: every way its post can fail
 * on the way to the server or back ends in the spec's failure notice for this
 * form alone, with the address kept and the page intact.
 */
export function WaitlistForm(props: Omit<SignupFormProps, 'failure' | 'onSend'>) {
  return (
    <SignupFailureBoundary form={props.variant}>
      {(failure, onSend) => (
        <SignupForm key={failure?.id} {...props} failure={failure} onSend={onSend} />
      )}
    </SignupFailureBoundary>
  )
}
