import 'server-only'
import { CEILING_VAR, RATE_LIMIT_VAR, type ServerConfig } from '@/lib/env'
import { log } from '@/lib/log'

/** Where the limits, and how to change the ceiling, are explained. */
export const LIMITS_DOC = 'docs/abuse-faults-and-load.md'

/** The operator's command that says whether the limits are in place, and the ceiling in force. */
export const CHECK_COMMAND = 'npm run waitlist -- check'

/** The one statement that changes the ceiling, at once and without a redeploy. */
export function ceilingStatement(perMinute: number | string): string {
  return `update waitlist_private.signup_limits set signups_per_minute = ${perMinute};`
}

function perVisitor({ rateLimitPerMinute }: ServerConfig): string {
  return rateLimitPerMinute > 0
    ? `${rateLimitPerMinute} a minute from each visitor (${RATE_LIMIT_VAR})`
    : `no allowance per visitor (${RATE_LIMIT_VAR}=0)`
}

/**
 * Says, as the embedded store starts serving, which limits its database
 * keeps: read in this process, from a database no other process changes.
 * `signupsPerMinute` is undefined when the database has no limits at all.
 */
export function announceEmbeddedLimits(
  description: string,
  signupsPerMinute: number | undefined,
  config: ServerConfig,
): void {
  if (signupsPerMinute === undefined) {
    log.error(
      `${description} has no signup limits: nothing limits how fast signups are stored (\`${CHECK_COMMAND}\` says what is missing)`,
    )
    return
  }
  const forEveryone =
    signupsPerMinute > 0
      ? `at most ${signupsPerMinute} new signups a minute from everyone together`
      : 'new signups with no ceiling (set to 0)'
  log.info(`the database admits ${forEveryone}, and ${perVisitor(config)}`)
}

/**
 * Says, as the Supabase store starts serving, what the server knows of the
 * limits without asking the data service: a request at start-up would be one
 * more on a visitor's path at every cold start. Whether the limits are in
 * place, and the ceiling, are the operator's to check, with the operator's key.
 */
export function announceSupabaseLimits(config: ServerConfig): void {
  log.info(
    `signups meet the database's limits: ${perVisitor(config)}, and its own ceiling on new ` +
      `signups from everyone together, which \`${CHECK_COMMAND}\` shows`,
  )
  const asked = config.signupCeilingPerMinute
  if (asked !== undefined) {
    log.warn(
      `${CEILING_VAR}=${asked} has no effect on Supabase: the ceiling is kept by the database. ` +
        `Change it there, at once and without a redeploy, by running \`${ceilingStatement(asked)}\` ` +
        `in the SQL editor (see ${LIMITS_DOC}); \`${CHECK_COMMAND}\` shows the ceiling in force.`,
    )
  }
}
