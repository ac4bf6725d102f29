import type { WaitlistEntry } from './schema'

/**
 * What an insert can expectedly end in. Anything else is thrown as a {@link StoreError}.
 * The database refuses a signup past the client's allowance or past the
 * ceiling for everyone together (supabase/migrations, the signup limits).
 */
export type InsertResult = 'inserted' | 'duplicate' | 'over_allowance' | 'over_ceiling'

/**
 * Who is signing up, for the database's per-client allowance: a keyed hash
 * of the visitor's address (never the address) and the signups a minute the
 * server asks the database to allow them.
 */
export type ClientAllowance = { key: string; perMinute: number }

/**
 * Where signups go. Both implementations refuse a second row for the same
 * address with `duplicate`. `signal` aborts when the caller stops waiting: a
 * store that can call its request off does.
 */
export interface WaitlistStore {
  /** Said once in the log when the store starts serving, e.g. where its data lives. */
  readonly description: string
  /** Inserts as the public does; without `client` only the ceiling applies. */
  insert(
    entry: WaitlistEntry,
    client?: ClientAllowance,
    signal?: AbortSignal,
  ): Promise<InsertResult>
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

/** The signup limits' refusal (PostgREST answers a SQLSTATE PTnnn with HTTP nnn). */
export const TOO_MANY_SIGNUPS = 'PT429'

/** The headers that carry a {@link ClientAllowance}; PostgREST hands them to SQL in `request.headers`. */
export const CLIENT_KEY_HEADER = 'x-waitlist-client'
export const CLIENT_ALLOWANCE_HEADER = 'x-waitlist-allowance'

export function allowanceHeaders(client: ClientAllowance | undefined): Record<string, string> {
  if (!client) return {}
  return { [CLIENT_KEY_HEADER]: client.key, [CLIENT_ALLOWANCE_HEADER]: String(client.perMinute) }
}

/** Which limit a PT429 refusal names in its detail (`client_allowance` or `signup_ceiling`). */
export function refusalOf(detail: unknown): 'over_allowance' | 'over_ceiling' {
  return detail === 'client_allowance' ? 'over_allowance' : 'over_ceiling'
}

/**
 * The same store with one deadline on every request, which aborts it. PGlite
 * cannot stop a statement it has begun: an embedded insert may still commit
 * after the visitor was told it failed.
 */
export function withTimeout(store: WaitlistStore, timeoutMs: number): WaitlistStore {
  function timed<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const signal = AbortSignal.timeout(timeoutMs)
    const late = () => new StoreError(`the store did not answer within ${timeoutMs} ms`)
    return new Promise<T>((resolve, reject) => {
      const giveUp = () => reject(late())
      signal.addEventListener('abort', giveUp, { once: true })
      request(signal)
        // The store's own failure once aborted is the deadline's doing: one cause, said once.
        .then(resolve, (error: unknown) => reject(signal.aborted ? late() : error))
        .finally(() => signal.removeEventListener('abort', giveUp))
    })
  }
  return {
    description: store.description,
    insert: (entry, client) => timed((signal) => store.insert(entry, client, signal)),
  }
}
