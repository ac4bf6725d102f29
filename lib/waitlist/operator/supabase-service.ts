import 'server-only'
import { logExcerpt, NO_SUCH_FUNCTION } from '@/lib/waitlist/supabase-client'

/** No default timeout in supabase-js: each request of the operator commands gives up after this. */
export const REQUEST_TIMEOUT_MS = 30_000

export type Result = { error: { code?: string; message: string } | null; status: number }

/**
 * What to tell the operator about a failed request, or undefined when it
 * succeeded. A function the project does not have yet means the migrations
 * were not applied there: said so, rather than as a bare 404.
 */
export function refusal({ error, status }: Result, what: string): string | undefined {
  if (!error) return undefined
  if (error.code === NO_SUCH_FUNCTION) {
    return (
      `Supabase has no function for this (${error.message}): apply the migrations in ` +
      `supabase/migrations to the project (supabase db push), then run this again.`
    )
  }
  const message = logExcerpt(error.message)
  if (status === 0) return `Could not reach Supabase to ${what}: ${message}`
  return `Supabase refused to ${what} (HTTP ${status}, code ${error.code || 'none'}): ${message}`
}
