import 'server-only'
import {
  CEILING_VAR,
  isConfigError,
  RATE_LIMIT_VAR,
  TRUSTED_PROXY_VAR,
  type ServerConfig,
} from '@/lib/env'
import { log } from '@/lib/log'
import { clientKey, clientKeySecret } from './client-key'
import type { SignupLimits } from './join'
import { createRateLimiter, type RateLimiter } from './memory-rate-limiter'
import { processWide, serverConfig } from './process-wide'
import type { ClientAllowance } from './store'

/** How long no signup must be refused before a burst of refusals is over and its count logged. */
export const REFUSAL_QUIET_MS = 60_000

type Refusal = 'over_allowance' | 'over_ceiling'

type Burst = { refused: number; firstAt: number; lastAt: number }

type Limits = {
  perMinute: number
  /** The first line: one client's posts to this process, refused ones included. */
  perClient: RateLimiter
  /** What the visitor's address is hashed with before it names them to the database. */
  secret: string
  bursts: Partial<Record<Refusal, Burst>>
}

/** The configuration, or nothing when it is broken (that is logged where it is read). */
function configOrNothing(): ServerConfig | undefined {
  try {
    return serverConfig()
  } catch (error) {
    if (isConfigError(error)) return undefined
    throw error
  }
}

/** This process's limit state, made at first use and kept process-wide. Undefined with a broken configuration. */
function limits(): Limits | undefined {
  if (processWide.limits) return processWide.limits as Limits
  const config = configOrNothing()
  if (!config) return undefined
  const made: Limits = {
    perMinute: config.rateLimitPerMinute,
    perClient: createRateLimiter({ perMinute: config.rateLimitPerMinute }),
    secret: clientKeySecret(config.store),
    bursts: {},
  }
  processWide.limits = made
  return made
}

/**
 * The limits one signup from `address` meets: the database's (for the whole
 * deployment), and in front of them this process's own count of the
 * visitor's posts, refused ones included, so one client hammering one server
 * costs the database nothing.
 */
export function signupLimitsFor(address: string | undefined): SignupLimits {
  const current = limits()
  // With a broken configuration the store answers the generic failure, and the cause is logged there.
  if (!current) return { admit: () => true }
  return {
    admit: () => admitInProcess(current, address),
    client: allowanceFor(current, address),
    refused: (why) => noteRefused(current, why),
  }
}

function admitInProcess(current: Limits, address: string | undefined): boolean {
  const verdict = current.perClient.take(address ?? 'unknown')
  // One line per burst, not per refused post: a flood must not become a flood of log lines.
  if (verdict === 'refused_first') {
    log.warn('signups refused: over the per-client rate limit', { client: address ?? 'unknown' })
  }
  return verdict === 'admitted'
}

function allowanceFor(current: Limits, address: string | undefined): ClientAllowance | undefined {
  if (current.perMinute === 0 || !address) return undefined
  return { key: clientKey(address, current.secret), perMinute: current.perMinute }
}

const REFUSED_BY: Record<Refusal, string> = {
  over_allowance: `over a visitor's allowance of signups a minute (${RATE_LIMIT_VAR}), counted by the database across every server`,
  over_ceiling: "over the database's ceiling on new signups a minute from everyone together",
}

/**
 * Two lines per burst of refusals, however long: one as it starts, and one
 * with the count once a quiet minute has passed. Under a steady flood the
 * ceiling admits a few posts a second and refuses the rest, so "admitted
 * again" cannot mark the end of a burst; only quiet can.
 */
function noteRefused(current: Limits, why: Refusal): void {
  const at = Date.now()
  const burst = current.bursts[why]
  if (burst) {
    burst.refused += 1
    burst.lastAt = at
    return
  }
  current.bursts[why] = { refused: 1, firstAt: at, lastAt: at }
  log.warn(`signups refused: ${REFUSED_BY[why]}`)
  settleAfterQuiet(current, why, REFUSAL_QUIET_MS)
}

function settleAfterQuiet(current: Limits, why: Refusal, delayMs: number): void {
  const timer = setTimeout(() => {
    const burst = current.bursts[why]
    if (!burst) return
    const quietFor = Date.now() - burst.lastAt
    if (quietFor < REFUSAL_QUIET_MS)
      return settleAfterQuiet(current, why, REFUSAL_QUIET_MS - quietFor)
    current.bursts[why] = undefined
    log.warn(`signups refused ${REFUSED_BY[why]}, burst over`, {
      refused: burst.refused,
      seconds: Math.round((burst.lastAt - burst.firstAt) / 1000),
    })
  }, delayMs)
  // The report must never keep a stopping server alive.
  timer.unref()
}

/** Where self-hosting behind a reverse proxy is explained: the start-up warning points there. */
export const PROXY_DOC = 'docs/abuse-faults-and-load.md'

/**
 * Says once, at start-up, when the per-client allowance is keyed on a header
 * the client itself can write: no Vercel edge and no declared proxy in front.
 */
export function warnIfClientsPickTheirKey(): void {
  if (processWide.keyWarningDone) return
  processWide.keyWarningDone = true
  const config = configOrNothing()
  if (!config || config.forwardedForSetBy !== 'client' || config.rateLimitPerMinute === 0) return
  const ceilingOff = config.store.kind === 'embedded' && config.signupCeilingPerMinute === 0
  const ceiling = ceilingOff
    ? `and the ceiling is off (${CEILING_VAR}=0), so nothing bounds a flood`
    : "only the database's ceiling on signups a minute from everyone together holds against a flood"
  log.warn(
    `the per-client rate limit is keyed on X-Forwarded-For, which any client can set while no proxy overwrites it: ${ceiling}. ` +
      `Put a reverse proxy that overwrites it in front and set ${TRUSTED_PROXY_VAR}=1; see ${PROXY_DOC}.`,
  )
}
