'use client'

import { useActionState } from 'react'
import { join } from './actions'

export function JoinForm() {
  const [message, formAction, pending] = useActionState(join, '')
  return (
    <form action={formAction}>
      <label htmlFor="email">Email address</label>
      <input id="email" type="email" name="email" required autoComplete="email" />
      <button type="submit" disabled={pending}>
        {pending ? 'Joining...' : 'Join'}
      </button>
      <p role="status">{message}</p>
    </form>
  )
}
