import 'server-only'
import { createClient } from '@supabase/supabase-js'
import { ReadError, type WaitlistReader, type WaitlistRow } from './reader'

const REQUEST_TIMEOUT_MS = 30_000

type Failure = { error: { code?: string; message: string } | null; status: number }

function check({ error, status }: Failure, what: string): void {
  if (!error) return
  const reason = status === 0 ? 'no answer' : `HTTP ${status}`
  const message = error.message.replace(/\s+/g, ' ').slice(0, 300)
  throw new ReadError(
    `Supabase refused to ${what} (${reason}, code ${error.code || 'none'}): ${message}`,
  )
}

/**
 * The list on Supabase, read with the service key through the REST data
 * service. Pages are asked for by offset in id order; the next offset follows
 * the rows actually received, and only an empty page ends the list, so a
 * server that caps pages below `pageSize` (PostgREST's max-rows) loses nothing.
 */
export function supabaseReader(url: string, serviceKey: string): WaitlistReader {
  const client = createClient(url, serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
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
    async close() {},
  }
}
