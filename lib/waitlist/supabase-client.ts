import 'server-only'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'

/** PostgREST's answer for a function it does not know: the project lacks a migration. */
export const NO_SUCH_FUNCTION = 'PGRST202'

/** A client for a server's own requests: no session to keep, refresh or read from a URL. */
export function supabaseClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
}

/** Longest excerpt of an error body kept for the log (an HTML 502 page can be large). */
const MAX_LOGGED_MESSAGE = 300

/** An error body as one short line of a log message. */
export function logExcerpt(message: string): string {
  return message.replace(/\s+/g, ' ').slice(0, MAX_LOGGED_MESSAGE)
}
