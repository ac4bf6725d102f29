import 'server-only'
import { supabaseClient } from '@/lib/waitlist/supabase-client'
import { refusal, REQUEST_TIMEOUT_MS, type Result } from './supabase-service'
import { isRowRefusal, RowRefusedError, WriteError, type WaitlistWriter } from './writer'

function check(result: Result, what: string): void {
  if (result.error && isRowRefusal(result.error.code)) {
    throw new RowRefusedError(result.error.message)
  }
  const message = refusal(result, what)
  if (message) throw new WriteError(message)
}

/**
 * Changes the list on Supabase with the service key, through the REST data
 * service. Addresses are stored lower-case (the table's CHECK), so an exact
 * match on the normalised address is a case-blind one. Imports go through
 * `public.waitlist_import`, which skips addresses already on the list, since
 * the REST API cannot say "on conflict do nothing" for a unique index on
 * lower(email).
 */
export function supabaseWriter(url: string, serviceKey: string): WaitlistWriter {
  const client = supabaseClient(url, serviceKey)
  return {
    description: `Supabase at ${new URL(url).host}`,
    async remove(email) {
      const result = await client
        .from('waitlist')
        .delete()
        .eq('email', email)
        .select('email')
        .abortSignal(AbortSignal.timeout(REQUEST_TIMEOUT_MS))
      check(result, 'remove an address')
      return (result.data ?? []).length > 0
    },
    async insert(rows) {
      const result = await client
        .rpc('waitlist_import', { entries: rows })
        .abortSignal(AbortSignal.timeout(REQUEST_TIMEOUT_MS))
      check(result, 'import')
      if (typeof result.data !== 'number') {
        throw new WriteError('Supabase answered the import without saying how many rows it added.')
      }
      return result.data
    },
    async close() {},
  }
}
