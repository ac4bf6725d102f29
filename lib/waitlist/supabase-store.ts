import 'server-only'
import { createClient } from '@supabase/supabase-js'
import type { WaitlistEntry } from './schema'
import {
  allowanceHeaders,
  refusalOf,
  StoreError,
  TOO_MANY_SIGNUPS,
  UNIQUE_VIOLATION,
  type ClientAllowance,
  type InsertResult,
  type WaitlistStore,
} from './store'

type SupabaseStoreOptions = { url: string; key: string; timeoutMs: number }

/** PostgREST's answer for a function it does not know: here, a project without the limits' migration. */
const NO_SUCH_FUNCTION = 'PGRST202'

/** Longest excerpt of an error body kept for the log (an HTML 502 page can be large). */
const MAX_LOGGED_MESSAGE = 300

type Failure = { error: { code: string; message: string }; status: number }

function refused({ error, status }: Failure, what: string): StoreError {
  const message = error.message.replace(/\s+/g, ' ').slice(0, MAX_LOGGED_MESSAGE)
  const reason = status === 0 ? 'no answer' : `HTTP ${status}`
  return new StoreError(
    `Supabase refused ${what} (${reason}, code ${error.code || 'none'}): ${message}`,
  )
}

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
    async insert({ email, source }: WaitlistEntry, who?: ClientAllowance): Promise<InsertResult> {
      let request = client.from('waitlist').insert({ email, source })
      // Headers of this request only: the database keys the visitor's allowance on them.
      for (const [name, value] of Object.entries(allowanceHeaders(who))) {
        request = request.setHeader(name, value)
      }
      // supabase-js sets no timeout of its own: without this a hung backend holds the request.
      const { error, status } = await request.abortSignal(AbortSignal.timeout(timeoutMs))
      if (!error) return 'inserted'
      // `error` is a plain object: branch on its code, never on instanceof.
      if (error.code === UNIQUE_VIOLATION) return 'duplicate'
      if (error.code === TOO_MANY_SIGNUPS) return refusalOf(error.details)
      throw refused({ error, status }, 'the insert')
    },
    async signupCeiling() {
      const { data, error, status } = await client
        .rpc('waitlist_signup_ceiling')
        .abortSignal(AbortSignal.timeout(timeoutMs))
      if (error?.code === NO_SUCH_FUNCTION) return undefined
      if (error) throw refused({ error, status }, 'reading the signup ceiling')
      if (typeof data !== 'number') {
        throw new StoreError(`Supabase answered the signup ceiling with ${JSON.stringify(data)}`)
      }
      return data
    },
  }
}
