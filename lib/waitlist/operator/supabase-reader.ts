import 'server-only'
import { supabaseClient } from '@/lib/waitlist/supabase-client'
import { ReadError, type WaitlistReader, type WaitlistRow } from './reader'
import { parseStats } from './stats'
import { refusal, REQUEST_TIMEOUT_MS, type Result } from './supabase-service'

function check(result: Result, what: string): void {
  const message = refusal(result, what)
  if (message) throw new ReadError(message)
}

/**
 * The list on Supabase, read with the service key through the REST data
 * service. Pages are asked for by offset in id order; the next offset follows
 * the rows actually received, and only an empty page ends the list, so a
 * server that caps pages below `pageSize` (PostgREST's max-rows) loses nothing.
 * The figures come from `public.waitlist_stats`, computed by the database.
 */
export function supabaseReader(url: string, serviceKey: string): WaitlistReader {
  const client = supabaseClient(url, serviceKey)
  return {
    description: `Supabase at ${new URL(url).host}`,
    async count() {
      const result = await client
        .from('waitlist')
        .select('*', { count: 'exact', head: true })
        .abortSignal(AbortSignal.timeout(REQUEST_TIMEOUT_MS))
      check(result, 'count the list')
      if (result.count === null) throw new ReadError('Supabase answered without a count.')
      return result.count
    },
    async has(email) {
      const result = await client
        .from('waitlist')
        .select('email')
        .eq('email', email)
        .limit(1)
        .abortSignal(AbortSignal.timeout(REQUEST_TIMEOUT_MS))
      check(result, 'look an address up')
      return (result.data ?? []).length > 0
    },
    async *pages(pageSize) {
      for (let offset = 0; ;) {
        const result = await client
          .from('waitlist')
          .select('email,source,created_at')
          .order('id', { ascending: true })
          .range(offset, offset + pageSize - 1)
          .abortSignal(AbortSignal.timeout(REQUEST_TIMEOUT_MS))
        check(result, 'read the list')
        const rows = (result.data ?? []) as WaitlistRow[]
        if (rows.length === 0) return
        yield rows
        offset += rows.length
      }
    },
    async stats(days) {
      const result = await client
        .rpc('waitlist_stats', { days })
        .abortSignal(AbortSignal.timeout(REQUEST_TIMEOUT_MS))
      check(result, 'compute the figures')
      return parseStats(result.data)
    },
    async close() {},
  }
}
