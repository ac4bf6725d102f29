import type { PGlite } from '@electric-sql/pglite'
import { IN_MEMORY_DATA_DIR } from '@/lib/env'
import { embeddedStore } from '@/lib/waitlist/embedded-store'
import { openLocalDatabase } from '@/lib/waitlist/open-local-database'
import { withTimeout, type WaitlistStore } from '@/lib/waitlist/store'
import { supabaseStore } from '@/lib/waitlist/supabase-store'
import { cannedAnswers, startSupabaseHarness } from '../harness/postgrest'

/** A store under test, with the means to make its backend fail or hang and to read what it holds. */
export type StoreUnderTest = {
  store: WaitlistStore
  /** The database behind it, with full rights. */
  db: PGlite
  /** Another server's store on the same database. */
  another(): WaitlistStore
  /** Adds a signup as the operator's `import` does: the service role on Supabase, the owner locally. */
  insertAsOperator(email: string): Promise<void>
  /** Every stored row, read with full rights. */
  rows(): Promise<{ email: string; source: string }[]>
  breakBackend(): Promise<void>
  /** Makes the backend stop answering; the function it resolves to lets it answer again. */
  hangBackend(): Promise<() => void>
  close(): Promise<void>
}

export const TEST_TIMEOUT_MS = 400

async function rowsOf(db: PGlite) {
  const result = await db.query<{ email: string; source: string }>(
    'select email, source from public.waitlist order by id',
  )
  return result.rows
}

export async function embeddedUnderTest(): Promise<StoreUnderTest> {
  const { db } = await openLocalDatabase(IN_MEMORY_DATA_DIR)
  let release: (() => void) | undefined
  return {
    store: withTimeout(embeddedStore(db, 'in memory'), TEST_TIMEOUT_MS),
    db,
    another: () => embeddedStore(db, 'in memory'),
    async insertAsOperator(email) {
      await db.query("insert into public.waitlist (email, source) values ($1, 'cta_section')", [
        email,
      ])
    },
    rows: () => rowsOf(db),
    breakBackend: () => db.close(),
    async hangBackend() {
      // A transaction held open: every later insert queues behind it, as behind a stuck lock.
      let started!: () => void
      const holding = new Promise<void>((resolve) => (started = resolve))
      void db.transaction(() => new Promise<void>((resolve) => ((release = resolve), started())))
      await holding
      return () => release?.()
    },
    async close() {
      release?.()
      if (!db.closed) await db.close()
    },
  }
}

export async function supabaseUnderTest(): Promise<StoreUnderTest> {
  const harness = await startSupabaseHarness()
  const server = () => supabaseStore({ url: harness.url, key: harness.anonKey })
  return {
    store: withTimeout(server(), TEST_TIMEOUT_MS),
    db: harness.db,
    another: server,
    async insertAsOperator(email) {
      const response = await harness.rest('waitlist', {
        method: 'POST',
        key: harness.serviceRoleKey,
        body: JSON.stringify({ email, source: 'cta_section' }),
      })
      if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`)
    },
    rows: () => rowsOf(harness.db),
    breakBackend: async () => harness.setFault(cannedAnswers.internal500),
    async hangBackend() {
      harness.setFault({ kind: 'hang' })
      return () => harness.setFault(undefined)
    },
    close: () => harness.close(),
  }
}
