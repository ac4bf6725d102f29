import 'server-only'
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
import { logExcerpt, supabaseClient } from './supabase-client'

type Failure = { error: { code: string; message: string }; status: number }

function refused({ error, status }: Failure, what: string): StoreError {
  const message = logExcerpt(error.message)
  const reason = status === 0 ? 'no answer' : `HTTP ${status}`
  return new StoreError(
    `Supabase refused ${what} (${reason}, code ${error.code || 'none'}): ${message}`,
  )
}

/**
 * The waitlist on Supabase, through its REST data service with the public key.
 * The insert asks for no row back: the key may insert but not read, so a
 * `.select()` here would be refused by row-level security. supabase-js sets
 * no timeout: the signal of withTimeout (store.ts) aborts a request. The
 * insert is the one request the site sends: reading the database's limits is
 * the operator's (`npm run waitlist -- check`), with the operator's key.
 */
export function supabaseStore({ url, key }: { url: string; key: string }): WaitlistStore {
  const client = supabaseClient(url, key)
  return {
    description: `Supabase at ${new URL(url).host}`,
    async insert(
      { email, source }: WaitlistEntry,
      who?: ClientAllowance,
      signal?: AbortSignal,
    ): Promise<InsertResult> {
      let request = client.from('waitlist').insert({ email, source })
      // Headers of this request only: the database keys the visitor's allowance on them.
      for (const [name, value] of Object.entries(allowanceHeaders(who))) {
        request = request.setHeader(name, value)
      }
      if (signal) request = request.abortSignal(signal)
      const { error, status } = await request
      if (!error) return 'inserted'
      // `error` is a plain object: branch on its code, never on instanceof.
      if (error.code === UNIQUE_VIOLATION) return 'duplicate'
      if (error.code === TOO_MANY_SIGNUPS) return refusalOf(error.details)
      throw refused({ error, status }, 'the insert')
    },
  }
}
