import 'server-only'
import { randomUUID } from 'node:crypto'
import { isConfigError } from '@/lib/env'
import { log } from '@/lib/log'
import { HONEYPOT_FIELD, MAX_EMAIL_INPUT_LENGTH } from './submission'
import { parseSignup } from './schema'
import type { WaitlistOutcome } from './state'
import { isStoreUnavailable, type ClientAllowance, type WaitlistStore } from './store'

/** The limits one signup meets (see visitor-limits.ts for the server's). */
export type SignupLimits = {
  /** Whether this process lets one more post from the visitor go on to the database; counts it. */
  admit(): boolean
  /** Who the visitor is, for the database's per-client allowance; none: only its ceiling applies. */
  client?: ClientAllowance
  /** Told when the database refuses the signup over one of its limits. */
  refused?(why: 'over_allowance' | 'over_ceiling'): void
}

const noLimits: SignupLimits = { admit: () => true }

/**
 * One signup, from the raw form post to the outcome the visitor sees; only
 * an unexpected failure is logged. Order matters: the first line counts every
 * post (a bot's too), a filled honeypot ends the work before validation, and
 * nothing reaches the store before the fields are known to be sound.
 */
export async function joinWith(
  form: FormData,
  openStore: () => Promise<WaitlistStore>,
  limits: SignupLimits = noLimits,
): Promise<WaitlistOutcome> {
  const submissionId = randomUUID()
  const typed = form.get('email')
  const email = typeof typed === 'string' ? typed.slice(0, MAX_EMAIL_INPUT_LENGTH) : ''

  if (!limits.admit()) return { status: 'rate_limited', email, submissionId }

  const honeypot = form.get(HONEYPOT_FIELD)
  if (honeypot !== null && honeypot !== '') {
    // Answered exactly as a success, so a bot learns nothing from the reply.
    log.info('honeypot filled: answered as joined, stored nothing', { email })
    return { status: 'joined', submissionId }
  }

  const parsed = parseSignup(form)
  if (!parsed.ok) return { status: 'invalid', field: parsed.field, email, submissionId }

  try {
    const store = await openStore()
    const result = await store.insert(parsed.entry, limits.client)
    switch (result) {
      case 'inserted':
        return { status: 'joined', submissionId }
      case 'duplicate':
        return { status: 'already_joined', submissionId }
      default:
        limits.refused?.(result)
        return { status: 'rate_limited', email, submissionId }
    }
  } catch (error) {
    // A configuration error, or a store that cannot be used, was logged in full when it was
    // found: each signup it refuses gets one short line, or none for configuration.
    if (isStoreUnavailable(error)) {
      log.warn('signup not stored', {
        source: parsed.entry.source,
        email: parsed.entry.email,
        reason: error.message,
      })
    } else if (!isConfigError(error)) {
      log.error('signup failed', {
        source: parsed.entry.source,
        email: parsed.entry.email,
        cause: error,
      })
    }
    return { status: 'error', email, submissionId }
  }
}
