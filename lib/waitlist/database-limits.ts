import 'server-only'
import { CEILING_VAR, RATE_LIMIT_VAR, type ServerConfig } from '@/lib/env'
import { log } from '@/lib/log'
import type { WaitlistStore } from './store'

/** The migration that gives the database its signup limits. */
export const SIGNUP_LIMITS_MIGRATION = 'supabase/migrations/20261123120000_signup_limits.sql'

/** The doc, and the heading in it, that says how the limits are changed; the heading must keep this wording. */
export const LIMITS_DOC = 'docs/abuse-faults-and-load.md'
export const LIMITS_DOC_SECTION = 'Changing the ceiling'

/** The README section that says how to apply the migrations; its heading must keep this wording. */
export const SETUP_README_SECTION = 'Deploying to Vercel with Supabase'

/** The one statement that changes the ceiling, at once and without a redeploy. */
export function ceilingStatement(perMinute: number | string): string {
  return `update waitlist_private.signup_limits set signups_per_minute = ${perMinute};`
}

/** Says in the log, as a store starts serving, which limits its database applies. Never throws: no signup waits on it. */
export async function announceSignupLimits(
  store: WaitlistStore,
  config: ServerConfig,
): Promise<void> {
  let ceiling: number | undefined
  try {
    ceiling = await store.signupCeiling()
  } catch (error) {
    // The database cannot be reached or refuses this key: each signup will say so too.
    log.warn(`could not read the signup limits of ${store.description}`, { cause: error })
    return
  }
  if (ceiling === undefined) {
    log.error(
      `${store.description} has no signup limits: nothing limits how fast signups are stored. ` +
        `Apply ${SIGNUP_LIMITS_MIGRATION} and the rest of supabase/migrations (README: "${SETUP_README_SECTION}").`,
    )
    return
  }
  const forEveryone =
    ceiling > 0
      ? `at most ${ceiling} new signups a minute from everyone together`
      : 'new signups with no ceiling (set to 0)'
  const perVisitor =
    config.rateLimitPerMinute > 0
      ? `and ${config.rateLimitPerMinute} a minute from each visitor (${RATE_LIMIT_VAR})`
      : `and no allowance per visitor (${RATE_LIMIT_VAR}=0)`
  log.info(`the database admits ${forEveryone}, ${perVisitor}`)

  const asked = config.signupCeilingPerMinute
  if (config.store.kind === 'supabase' && asked !== undefined) {
    log.warn(
      `${CEILING_VAR}=${asked} has no effect on Supabase: the ceiling is kept by the database ` +
        `(${ceiling} a minute now). Change it there, at once and without a redeploy, by running ` +
        `\`${ceilingStatement(asked)}\` in the SQL editor (${LIMITS_DOC}: "${LIMITS_DOC_SECTION}").`,
    )
  }
}
