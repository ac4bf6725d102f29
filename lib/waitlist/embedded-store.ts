import 'server-only'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { IN_MEMORY_DATA_DIR } from '@/lib/env'
import { openLocalDatabase } from './local-schema'
import type { WaitlistEntry } from './schema'
import { UNIQUE_VIOLATION, type InsertResult, type WaitlistStore } from './store'

/**
 * The waitlist on PGlite, PostgreSQL compiled to WebAssembly, running inside
 * the server process. It applies the same migrations as Supabase and inserts
 * as the `anon` role, so its constraints and row-level security are the
 * production ones.
 */
export function embeddedStore(db: PGlite, where: string): WaitlistStore {
  return {
    description: `the embedded database (${where})`,
    async insert({ email, source }: WaitlistEntry): Promise<InsertResult> {
      try {
        await db.transaction(async (tx) => {
          await tx.exec('set local role anon')
          await tx.query('insert into public.waitlist (email, source) values ($1, $2)', [
            email,
            source,
          ])
        })
        return 'inserted'
      } catch (error) {
        if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return 'duplicate'
        throw error
      }
    },
  }
}

const globalForEmbedded = globalThis as typeof globalThis & {
  embeddedWaitlist?: Map<string, Promise<WaitlistStore>>
}

/**
 * One database per data folder and process. Kept on `globalThis` so a dev
 * server's module reloads reuse it instead of opening the folder twice.
 */
export function sharedEmbeddedStore(dataDir: string): Promise<WaitlistStore> {
  const stores = (globalForEmbedded.embeddedWaitlist ??= new Map())
  const key = dataDir === IN_MEMORY_DATA_DIR ? dataDir : path.resolve(dataDir)
  let store = stores.get(key)
  if (!store) {
    const where = key === IN_MEMORY_DATA_DIR ? 'in memory, gone when the server stops' : key
    store = openLocalDatabase(dataDir).then((local) => embeddedStore(local.db, where))
    // A failed open is not cached, so the next signup tries again.
    store.catch(() => stores.delete(key))
    stores.set(key, store)
  }
  return store
}
