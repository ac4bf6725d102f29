import type { WaitlistEntry } from './schema'

/** What an insert can expectedly end in. Anything else is thrown as a {@link StoreError}. */
export type InsertResult = 'inserted' | 'duplicate'

/** Where signups go. Both implementations refuse a second row for the same address with `duplicate`. */
export interface WaitlistStore {
  /** Said once in the log when the store starts serving, e.g. where its data lives. */
  readonly description: string
  insert(entry: WaitlistEntry): Promise<InsertResult>
}

/** A store that could not take the signup: unreachable, timed out, refused or misconfigured. */
export class StoreError extends Error {
  override name = 'StoreError'
}

/**
 * A store that cannot take signups for a reason logged in full where it was
 * found (its data folder held by another server, a schema it cannot use), so
 * a signup it refuses logs one short line, not the whole story again.
 */
export class StoreUnavailableError extends StoreError {
  override name = 'StoreUnavailableError'
}

/** By name, not `instanceof`: the error may come from another server bundle's copy of this module. */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return error instanceof Error && error.name === 'StoreUnavailableError'
}

/** PostgreSQL's SQLSTATE for a unique violation: the one way a duplicate is detected. */
export const UNIQUE_VIOLATION = '23505'

/**
 * The same store, giving up on an insert after `timeoutMs`: a backend that
 * does not answer costs the visitor a bounded wait and the generic notice.
 */
export function withTimeout(store: WaitlistStore, timeoutMs: number): WaitlistStore {
  return {
    description: store.description,
    insert(entry) {
      let timer: NodeJS.Timeout | undefined
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new StoreError(`the store did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        )
      })
      return Promise.race([store.insert(entry), deadline]).finally(() => clearTimeout(timer))
    },
  }
}
