import 'server-only'
import { createClient } from '@supabase/supabase-js'
import type { WaitlistEntry } from './schema'
import { StoreError, UNIQUE_VIOLATION, type InsertResult, type WaitlistStore } from './store'

type SupabaseStoreOptions = { url: string; key: string; timeoutMs: number }

/** Longest excerpt of an error body kept for the log (an HTML 502 page can be large). */
const MAX_LOGGED_MESSAGE = 300

/**
 * The waitlist on Supabase, through its REST data service with the public key.
 * The insert asks for no row back: the key may insert but not read, so a
 * `.select()` here would be refused by row-level security.
 */
export function supabaseStore({ url, key, timeoutMs }: SupabaseStoreOptions): WaitlistStore {
  const client = createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
  return {
    description: `Supabase at ${new URL(url).host}`,
    async insert({ email, source }: WaitlistEntry): Promise<InsertResult> {
      // supabase-js sets no timeout of its own: without this a hung backend holds the request.
      const { error, status } = await client
        .from('waitlist')
        .insert({ email, source })
        .abortSignal(AbortSignal.timeout(timeoutMs))
      if (!error) return 'inserted'
      // `error` is a plain object: branch on its code, never on instanceof or details.
      if (error.code === UNIQUE_VIOLATION) return 'duplicate'
      const message = error.message.replace(/\s+/g, ' ').slice(0, MAX_LOGGED_MESSAGE)
      const reason = status === 0 ? 'no answer' : `HTTP ${status}`
      throw new StoreError(
        `Supabase refused the insert (${reason}, code ${error.code || 'none'}): ${message}`,
      )
    },
  }
}
