import type { WaitlistSource } from '@/lib/site'

/** One signup to add: checked by the site's schema; `created_at` kept when the source had one. */
export type ImportRow = { email: string; source: WaitlistSource; created_at?: string }

/** Changes the list: removes people, adds a list. Addresses are given already normalised. */
export interface WaitlistWriter {
  /** Said on stderr before writing, e.g. where the list is. */
  readonly description: string
  /** Deletes the address's row; false when it was not on the list. */
  remove(email: string): Promise<boolean>
  /**
   * Adds the rows whose address is not on the list yet, in order, in one
   * statement, and resolves to how many were added. If the table refuses a
   * row, none is added and a {@link RowRefusedError} says why.
   */
  insert(rows: ImportRow[]): Promise<number>
  close(): Promise<void>
}

/** A write the store refused or could not take: unreachable, refused, or its folder held by a server. */
export class WriteError extends Error {
  override name = 'WriteError'
}

/**
 * The table refused a row: a rule it breaks (a CHECK or NOT NULL, SQLSTATE
 * class 23) or a value it cannot read (class 22). That row, not the store,
 * is at fault.
 */
export class RowRefusedError extends Error {
  override name = 'RowRefusedError'
}

/** Whether a PostgreSQL error code is about a row's values (classes 22 and 23), not the store. */
export function isRowRefusal(code: string | undefined): boolean {
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'))
}
