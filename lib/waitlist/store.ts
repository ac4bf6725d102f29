import type { WaitlistEntry } from './schema'
import type { Visitor } from './visitor'

/** What an insert can expectedly end in; anything else is thrown, and logged by the action. */
export type InsertResult = 'inserted' | 'duplicate' | 'over_limit'

export interface WaitlistStore {
  readonly description: string
  /** Inserts as the public does, speaking for `visitor`; gives up when `signal` aborts. */
  insert(entry: WaitlistEntry, visitor: Visitor, signal: AbortSignal): Promise<InsertResult>
}

/** A duplicate address, or a limit's refusal (HTTP 429 through PostgREST). */
export function resultOf(code: unknown): InsertResult | undefined {
  if (code === '23505') return 'duplicate'
  if (code === 'PT429') return 'over_limit'
  return undefined
}
