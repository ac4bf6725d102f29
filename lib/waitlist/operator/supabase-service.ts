import 'server-only'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'

/** No default timeout in supabase-js: each request of the operator commands gives up after this. */
export const REQUEST_TIMEOUT_MS = 30_000

/** The client the operator commands use: the service key, no session kept. */
export function serviceClient(url: string, serviceKey: string): SupabaseClient {
  return createClient(url, serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
}

export type Result = { error: { code?: string; message: string } | null; status: number }

/**
 * What to tell the operator about a failed request, or undefined when it
 * succeeded. A function the project does not have yet means the migrations
 * were not applied there: said so, rather than as a bare 404.
 */
export function refusal({ error, status }: Result, what: string): string | undefined {
  if (!error) return undefined
  if (error.code === 'PGRST202') {
    return (
      `Supabase has no function for this (${error.message}): apply the migrations in ` +
      `supabase/migrations to the project (supabase db push), then run this again.`
    )
  }
  const message = error.message.replace(/\s+/g, ' ').slice(0, 300)
  if (status === 0) return `Could not reach Supabase to ${what}: ${message}`
  return `Supabase refused to ${what} (HTTP ${status}, code ${error.code || 'none'}): ${message}`
}
