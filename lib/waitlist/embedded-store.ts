import 'server-only'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { IN_MEMORY_DATA_DIR } from '@/lib/env'
import { log } from '@/lib/log'
import { isFolderInUse } from './folder-lock'
import { openLocalDatabase, type LocalDatabase } from './open-local-database'
import { isMigrationError } from './migrations'
import { readLocalSchemaReport } from './schema-check'
import type { WaitlistEntry } from './schema'
import {
  allowanceHeaders,
  isStoreUnavailable,
  refusalOf,
  StoreError,
  StoreUnavailableError,
  TOO_MANY_SIGNUPS,
  UNIQUE_VIOLATION,
  type ClientAllowance,
  type InsertResult,
  type WaitlistStore,
} from './store'

/**
 * The waitlist on PGlite, PostgreSQL compiled to WebAssembly, running inside
 * the server process. It applies the same migrations as Supabase and inserts
 * as the `anon` role, with the request's headers set where PostgREST sets
 * them, so its constraints, row-level security and signup limits are the
 * production ones.
 */
export function embeddedStore(db: PGlite, where: string): WaitlistStore {
  return {
    description: `the embedded database (${where})`,
    async insert(
      { email, source }: WaitlistEntry,
      client?: ClientAllowance,
    ): Promise<InsertResult> {
      try {
        await db.transaction(async (tx) => {
          await tx.exec('set local role anon')
          await tx.query("select set_config('request.headers', $1, true)", [
            JSON.stringify(allowanceHeaders(client)),
          ])
          await tx.query('insert into public.waitlist (email, source) values ($1, $2)', [
            email,
            source,
          ])
        })
        return 'inserted'
      } catch (error) {
        const { code, detail } = error as { code?: unknown; detail?: unknown }
        if (code === UNIQUE_VIOLATION) return 'duplicate'
        if (code === TOO_MANY_SIGNUPS) return refusalOf(detail)
        throw error
      }
    },
  }
}

/** Sets the database's ceiling on new signups a minute (0: none), as its owner. */
export async function setSignupCeiling(db: Pick<PGlite, 'query'>, perMinute: number) {
  await db.query('update waitlist_private.signup_limits set signups_per_minute = $1', [perMinute])
}

type Shared = {
  /** The open (or opening) store per data folder. */
  stores: Map<string, Promise<ServingEmbeddedStore>>
  /** The database under each open store, to close when the server stops. */
  databases: Map<string, LocalDatabase>
  /** Per folder, the holder last reported as keeping it from this server, so it is said once. */
  reported: Map<string, string>
}

/** Kept on `globalThis` so a dev server's module reloads reuse the database instead of opening the folder twice. */
const shared = ((
  globalThis as typeof globalThis & { embeddedWaitlistFolders?: Shared }
).embeddedWaitlistFolders ??= { stores: new Map(), databases: new Map(), reported: new Map() })

const TAKE_OVER =
  'Stop that server, or set WAITLIST_DATA_DIR to another folder for this one. Until then every ' +
  'signup here answers "Something went wrong" and stores nothing; each one tries the folder again, ' +
  'and the first after that server stops takes the folder over, without a restart.'

/** Says in the log, once, why the folder cannot be used; returns what each refused signup is told. */
function unavailable(key: string, error: unknown): unknown {
  if (isFolderInUse(error)) {
    const holder = error.holder ? `${error.holder.pid} ${error.holder.startedAt}` : 'unknown'
    if (shared.reported.get(key) !== holder) {
      shared.reported.set(key, holder)
      log.error(`signups are refused: ${error.message} ${TAKE_OVER}`)
    }
    return new StoreUnavailableError(`the data folder ${key} is in use by another server`, {
      cause: error,
    })
  }
  if (isMigrationError(error)) {
    log.error(`signups are refused: ${error.message} Fix it, then restart the server.`)
    return new StoreUnavailableError(`the database in ${key} cannot be used by this code`, {
      cause: error,
    })
  }
  return error
}

/** Retrying cannot help a schema this code cannot use: it waits for a fix and a restart. */
function isPermanent(error: unknown): boolean {
  return isStoreUnavailable(error) && isMigrationError(error.cause)
}

export type EmbeddedOptions = {
  /** Applied to the database as it opens; when undefined the database keeps its own. */
  signupCeilingPerMinute?: number
}

/** The server's store on its folder, with the ceiling its database keeps. */
export type ServingEmbeddedStore = WaitlistStore & {
  /**
   * New signups a minute from everyone together (0: no ceiling), as the
   * database opened; undefined when it has no signup limits. Only the server
   * holding the folder can change it.
   */
  readonly signupsPerMinute: number | undefined
}

async function open(
  dataDir: string,
  key: string,
  options: EmbeddedOptions,
): Promise<ServingEmbeddedStore> {
  let lost = false
  let local: LocalDatabase
  try {
    local = await openLocalDatabase(dataDir, {
      onLost(error) {
        // Another process may own the folder now: not one more write from here. The database
        // is left open rather than closed, because closing writes to the folder too.
        lost = true
        shared.stores.delete(key)
        shared.databases.delete(key)
        log.error(
          `lost the lock on the data folder ${key} (the server stalled for too long, or the ` +
            `lock was removed): signups stop here, and the next one tries to take the folder again`,
          { cause: error },
        )
      },
    })
  } catch (error) {
    throw unavailable(key, error)
  }
  shared.reported.delete(key)
  let signupsPerMinute: number | undefined
  try {
    if (options.signupCeilingPerMinute !== undefined) {
      await setSignupCeiling(local.db, options.signupCeilingPerMinute)
    }
    signupsPerMinute = (await readLocalSchemaReport(local.db))?.signupsPerMinute ?? undefined
  } catch (error) {
    await local.close()
    throw error
  }
  shared.databases.set(key, local)
  const inMemory = key === IN_MEMORY_DATA_DIR
  const store = embeddedStore(local.db, inMemory ? 'in memory, gone when the server stops' : key)
  if (!inMemory && local.applied.length > 0) {
    log.info(`applied migrations ${local.applied.join(', ')} to ${key}`)
  }
  log.info(`signups go to ${store.description}`)
  return {
    description: store.description,
    signupsPerMinute,
    insert(entry, client) {
      if (lost) return Promise.reject(new StoreError(`the lock on ${key} was lost`))
      return store.insert(entry, client)
    },
  }
}

/**
 * The server's store on a data folder, opened once per process: while it is
 * open this process owns the folder. When another server owns it, the
 * promise rejects with a {@link StoreUnavailableError} and is forgotten, so
 * the next signup tries again and takes the folder over once it is free.
 */
export function sharedEmbeddedStore(
  dataDir: string,
  options: EmbeddedOptions = {},
): Promise<ServingEmbeddedStore> {
  const key = dataDir === IN_MEMORY_DATA_DIR ? dataDir : path.resolve(dataDir)
  let store = shared.stores.get(key)
  if (!store) {
    store = open(dataDir, key, options)
    store.catch((error: unknown) => {
      if (!isPermanent(error)) shared.stores.delete(key)
    })
    shared.stores.set(key, store)
  }
  return store
}

/**
 * Closes every database this process has open and lets go of its folder, as
 * a stopped server would have: the next signup opens its folder anew.
 */
export async function closeEmbeddedStores(): Promise<void> {
  await Promise.allSettled(shared.stores.values())
  const open = [...shared.databases.values()]
  shared.stores.clear()
  shared.databases.clear()
  shared.reported.clear()
  for (const local of open) await local.close()
}
