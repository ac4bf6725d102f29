import 'server-only'
import { randomUUID } from 'node:crypto'
import { isConfigError } from '@/lib/env'
import { log } from '@/lib/log'
import { parseSignup } from './schema'
import type { WaitlistOutcome } from './state'
import type { WaitlistStore } from './store'

/** Longest address echoed back into the form after a failure. */
const MAX_ECHOED_EMAIL = 320

/**
 * One signup, from the raw form post to the outcome the visitor sees.
 * Expected outcomes are returned; only an unexpected failure is logged, and
 * it reaches the visitor as the generic outcome `error`.
 */
export async function joinWith(
  form: FormData,
  openStore: () => Promise<WaitlistStore>,
): Promise<WaitlistOutcome> {
  const submissionId = randomUUID()
  const typed = form.get('email')
  const email = typeof typed === 'string' ? typed.slice(0, MAX_ECHOED_EMAIL) : ''

  const parsed = parseSignup(form)
  if (!parsed.ok) return { status: 'invalid', field: parsed.field, email, submissionId }

  try {
    const store = await openStore()
    const result = await store.insert(parsed.entry)
    return { status: result === 'inserted' ? 'joined' : 'already_joined', submissionId }
  } catch (error) {
    // A configuration error was logged once when it was found; repeating it per signup adds nothing.
    if (!isConfigError(error)) {
      log.error('signup failed', {
        source: parsed.entry.source,
        email: parsed.entry.email,
        cause: error,
      })
    }
    return { status: 'error', email, submissionId }
  }
}
