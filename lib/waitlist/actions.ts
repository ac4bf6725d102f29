'use server'

import { randomUUID } from 'node:crypto'
import { headers } from 'next/headers'
import { serverConfig } from '@/lib/env'
import { log } from '@/lib/log'
import { untilAborted } from '@/lib/until-aborted'
import { HONEYPOT_FIELD, MAX_EMAIL_INPUT_LENGTH, type WaitlistState } from './form-contract'
import { parseSignup } from './schema'
import { waitlistStore } from './server-store'
import { admitPost, identifyVisitor } from './visitor'

export async function joinWaitlist(
  _previous: WaitlistState,
  form: FormData,
): Promise<WaitlistState> {
  const submissionId = randomUUID()
  const configured = serverConfig()
  const perMinute = configured.ok ? configured.config.perMinute : 0
  const visitor = identifyVisitor(await headers(), configured.ok ? configured.config.proxies : 0)
  const typed = form instanceof FormData ? form.get('email') : null
  const email = typeof typed === 'string' ? typed.slice(0, MAX_EMAIL_INPUT_LENGTH) : ''
  const failure = { status: 'error', submissionId, email } as const
  /** Logged every time, with what the visitor sent. */
  const refuse = (reason: string, fields: Record<string, unknown> = {}) => {
    log.warn(`signup refused: ${reason}`, fields)
    return failure
  }
  /** What comes in floods (posts over an allowance, a limit's refusals) is logged once a minute. */
  const refuseFlood = (reason: string) => {
    log.warnOncePerMinute(`signup refused: ${reason}`)
    return failure
  }

  if (!admitPost(visitor, perMinute))
    return refuseFlood(`over ${perMinute} posts a minute from one visitor to this server`)
  // A hand-made post can name the action with arguments that are no form at all.
  if (!(form instanceof FormData)) return refuse('the post was not a form')
  if (form.get(HONEYPOT_FIELD)) {
    // Answered exactly as a welcome, so a bot learns nothing; logged, masked, so that it is seen.
    log.info('honeypot filled: answered as joined, stored nothing', { email })
    return { status: 'joined', submissionId }
  }
  const entry = parseSignup(form)
  if (!entry)
    return refuse('an address or source the server cannot take', {
      email,
      source: form.get('source'),
    })
  if (!configured.ok) return refuse('the configuration is broken (said at start-up)')

  try {
    // The store's opening counts against the insert's time: a folder that never opens fails in time.
    const signal = AbortSignal.timeout(configured.config.storeTimeoutMs)
    const store = await untilAborted(waitlistStore(), signal)
    const result = await store.insert(entry, visitor, signal)
    if (result === 'over_limit')
      return refuseFlood("over one of the database's limits (docs/abuse.md)")
    return { status: result === 'inserted' ? 'joined' : 'already_joined', submissionId }
  } catch (error) {
    log.error('signup failed', { source: entry.source, email: entry.email, cause: error })
    return failure
  }
}
