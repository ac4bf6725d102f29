import 'server-only'
import { CEILING_VAR, isConfigError, TRUSTED_PROXY_VAR, type ServerConfig } from '@/lib/env'
import { log } from '@/lib/log'
import { createRateLimiter, type RateLimiter } from './rate-limit'
import { processWide, serverConfig } from './server-config'

/** How long no signup must be refused by the ceiling before its burst is over and its count logged. */
export const CEILING_QUIET_MS = 60_000

type Burst = { refused: number; firstAt: number; lastAt: number }

type Limits = {
  perClient: RateLimiter
  ceiling: RateLimiter
  ceilingPerMinute: number
  burst?: Burst
}

/** The ceiling is one limiter window shared by every client: this is its only key. */
const EVERYONE = 'everyone'

/** The configuration, or nothing when it is broken (that is logged where it is read). */
function configOrNothing(): ServerConfig | undefined {
  try {
    return serverConfig()
  } catch (error) {
    if (isConfigError(error)) return undefined
    throw error
  }
}

/**
 * This server's limiters, made at first use and kept process-wide, so the
 * ceiling is one per server instance whichever bundle asks. Undefined with a
 * broken configuration.
 */
function limits(): Limits | undefined {
  if (processWide.limits) return processWide.limits as Limits
  const config = configOrNothing()
  if (!config) return undefined
  const made: Limits = {
    perClient: createRateLimiter({ perMinute: config.rateLimitPerMinute }),
    // Only admitted signups count: past the ceiling the server still admits its
    // share each minute, and admits fully again a minute after a flood ends.
    ceiling: createRateLimiter({ perMinute: config.signupCeilingPerMinute, countRefused: false }),
    ceilingPerMinute: config.signupCeilingPerMinute,
  }
  processWide.limits = made
  return made
}

/**
 * Whether this server admits one more signup from `client` now: within the
 * client's own limit (WAITLIST_RATE_LIMIT_PER_MINUTE), then within the ceiling
 * for all clients together (WAITLIST_SIGNUPS_PER_MINUTE_CEILING), which no
 * header can sidestep. With a broken configuration it admits: the store then
 * answers the generic failure, and the cause is logged there.
 */
export function admitSignup(client: string): boolean {
  const current = limits()
  if (!current) return true

  const verdict = current.perClient.take(client)
  // One line per burst, not per refused post: a flood must not become a flood of log lines.
  if (verdict === 'refused_first')
    log.warn('signups refused: over the per-client rate limit', { client })
  // A client already over its own limit is turned away before the ceiling, so it uses up no one else's share.
  if (verdict !== 'admitted') return false

  if (current.ceiling.take(EVERYONE) === 'admitted') return true
  noteRefusedOverCeiling(current)
  return false
}

/**
 * Two lines per burst of refusals, however long: one as it starts, and one
 * with the count once a quiet minute has passed. Under a steady flood the
 * ceiling admits a few posts a second and refuses the rest, so "admitted
 * again" cannot mark the end of a burst; only quiet can.
 */
function noteRefusedOverCeiling(current: Limits): void {
  const at = Date.now()
  if (current.burst) {
    current.burst.refused += 1
    current.burst.lastAt = at
    return
  }
  current.burst = { refused: 1, firstAt: at, lastAt: at }
  log.warn(
    `signups refused: over this server's ceiling of ${current.ceilingPerMinute} a minute (${CEILING_VAR})`,
  )
  settleAfterQuiet(current, CEILING_QUIET_MS)
}

function settleAfterQuiet(current: Limits, delayMs: number): void {
  const timer = setTimeout(() => {
    const burst = current.burst
    if (!burst) return
    const quietFor = Date.now() - burst.lastAt
    if (quietFor < CEILING_QUIET_MS) return settleAfterQuiet(current, CEILING_QUIET_MS - quietFor)
    current.burst = undefined
    log.warn("signups refused over this server's ceiling, burst over", {
      refused: burst.refused,
      seconds: Math.round((burst.lastAt - burst.firstAt) / 1000),
    })
  }, delayMs)
  // The report must never keep a stopping server alive.
  timer.unref()
}

/** The README section the start-up warning points to; its heading must keep this wording. */
export const PROXY_README_SECTION = 'Self-hosting behind a reverse proxy'

/**
 * Says once, at start-up, when the per-client limit is keyed on a header the
 * client itself can write: no Vercel edge and no declared proxy in front.
 */
export function warnIfClientsPickTheirKey(): void {
  if (processWide.keyWarningDone) return
  processWide.keyWarningDone = true
  const config = configOrNothing()
  if (!config || config.forwardedForSetBy !== 'client' || config.rateLimitPerMinute === 0) return
  const ceiling =
    config.signupCeilingPerMinute > 0
      ? `only the ceiling of ${config.signupCeilingPerMinute} signups a minute for all clients holds against a flood`
      : `and the ceiling is off (${CEILING_VAR}=0), so nothing bounds a flood`
  log.warn(
    `the per-client rate limit is keyed on X-Forwarded-For, which any client can set while no proxy overwrites it: ${ceiling}. ` +
      `Put a reverse proxy that overwrites it in front and set ${TRUSTED_PROXY_VAR}=1; see "${PROXY_README_SECTION}" in the README.`,
  )
}
