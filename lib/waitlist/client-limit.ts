import 'server-only'
import { isConfigError } from '@/lib/env'
import { log } from '@/lib/log'
import { createRateLimiter, type RateLimiter } from './rate-limit'
import { serverConfig } from './server-config'

let limiter: RateLimiter | undefined

/**
 * Whether this server admits one more signup from `client` this minute
 * (WAITLIST_RATE_LIMIT_PER_MINUTE). With a broken configuration it admits:
 * the store then answers the generic failure, and the cause is logged there.
 */
export function admitSignup(client: string): boolean {
  if (!limiter) {
    try {
      limiter = createRateLimiter({ perMinute: serverConfig().rateLimitPerMinute })
    } catch (error) {
      if (isConfigError(error)) return true
      throw error
    }
  }
  const verdict = limiter.take(client)
  // One line per burst, not per refused post: a flood must not become a flood of log lines.
  if (verdict === 'refused_first')
    log.warn('signups refused: over the per-client rate limit', { client })
  return verdict === 'admitted'
}
