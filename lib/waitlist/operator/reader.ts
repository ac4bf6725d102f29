/** One signup as the operator commands print it. `created_at` is ISO 8601 in UTC, as Supabase sends it. */
export type WaitlistRow = { email: string; source: string; created_at: string }

/** Reads the whole list, in signup order, one page at a time so memory stays flat however long it is. */
export interface WaitlistReader {
  /** Said on stderr before reading, e.g. where the list is read from. */
  readonly description: string
  count(): Promise<number>
  /** Whether the address (given normalised) is on the list: what `remove --dry-run` reports. */
  has(email: string): Promise<boolean>
  pages(pageSize: number): AsyncGenerator<WaitlistRow[]>
  /** The figures of {@link WaitlistStats}, for the last `days` UTC days, computed by the database. */
  stats(days: number): Promise<WaitlistStats>
  close(): Promise<void>
}

/**
 * What `public.waitlist_stats` (supabase/migrations) answers: the total, the
 * count per source, signups per UTC day for the last days (days with none
 * included), and the first and latest signup times (null on an empty list).
 */
export type WaitlistStats = {
  total: number
  by_source: Record<string, number>
  first_signup_at: string | null
  latest_signup_at: string | null
  days: { day: string; signups: number }[]
}

export const EXPORT_PAGE_SIZE = 1000

/** A read that failed: unreachable, refused, or a database that cannot be opened. */
export class ReadError extends Error {
  override name = 'ReadError'
}
