/** One signup as the operator commands print it. `created_at` is ISO 8601 in UTC, as Supabase sends it. */
export type WaitlistRow = { email: string; source: string; created_at: string }

/** Reads the whole list, in signup order, one page at a time so memory stays flat however long it is. */
export interface WaitlistReader {
  /** Said on stderr before reading, e.g. where the list is read from. */
  readonly description: string
  count(): Promise<number>
  pages(pageSize: number): AsyncGenerator<WaitlistRow[]>
  close(): Promise<void>
}

export const EXPORT_PAGE_SIZE = 1000

/** A read that failed: unreachable, refused, or a database that cannot be opened. */
export class ReadError extends Error {
  override name = 'ReadError'
}
