import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { PGlite } from '@electric-sql/pglite'
import { embeddedStore } from '@/lib/waitlist/embedded-store'
import { openLocalDatabase } from '@/lib/waitlist/open-local-database'
import { runWaitlistCli } from '@/lib/waitlist/operator/cli'
import type { WaitlistStore } from '@/lib/waitlist/store'
import { supabaseStore } from '@/lib/waitlist/supabase-store'
import { startSupabaseHarness, type SupabaseHarness } from '../harness/postgrest'
import { sink } from './sink'

export type Signup = readonly [email: string, source: string, createdAt?: string]

/**
 * One store as the operator commands meet it: the embedded database in a
 * folder of its own, or the Supabase stand-in with the service key. Rows are
 * seeded and read back with full rights, around the commands.
 */
export type OperatorStore = {
  name: string
  env: Record<string, string>
  /** Inserts as the table owner, so `created_at` can be set. */
  seed(rows: readonly Signup[]): Promise<void>
  /** Every row, in id order. */
  rows(): Promise<{ email: string; source: string; created_at: string }[]>
  /** One statement with full rights, around the commands; resolves to its rows. */
  sql<Row>(statement: string): Promise<Row[]>
  /** The store the site writes signups to, on this same list, and how to let go of it. */
  siteStore(): Promise<{ store: WaitlistStore; close(): Promise<void> }>
  close(): Promise<void>
}

async function seedInto(db: Pick<PGlite, 'query'>, rows: readonly Signup[]) {
  for (const [email, source, createdAt] of rows) {
    await db.query(
      'insert into public.waitlist (email, source, created_at) values ($1, $2, coalesce($3::timestamptz, now()))',
      [email, source, createdAt ?? null],
    )
  }
}

async function rowsOf(db: Pick<PGlite, 'query'>) {
  const { rows } = await db.query<{ email: string; source: string; created_at: string }>(
    // The text export writes: ISO 8601 in UTC (local databases run in UTC).
    `select email, source, to_json(created_at) #>> '{}' as created_at
       from public.waitlist order by id`,
  )
  return rows
}

/** `migrationsDir` makes the folder as older code would have: with those migrations only. */
export async function embeddedOperatorStore(
  options: { migrationsDir?: string } = {},
): Promise<OperatorStore> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'operator-'))
  const folder = path.join(dir, 'data')
  // Every use opens the folder and lets go of it: the commands must be able to take it.
  const withFolder = async <T>(run: (db: PGlite) => Promise<T>): Promise<T> => {
    const local = await openLocalDatabase(folder, options)
    try {
      return await run(local.db)
    } finally {
      await local.close()
    }
  }
  await withFolder(async () => {})
  return {
    name: 'the embedded database',
    env: { WAITLIST_DATA_DIR: folder },
    seed: (rows) => withFolder((db) => seedInto(db, rows)),
    rows: () => withFolder(rowsOf),
    sql: <Row>(statement: string) =>
      withFolder(async (db) => (await db.query<Row>(statement)).rows),
    async siteStore() {
      const local = await openLocalDatabase(folder, options)
      return { store: embeddedStore(local.db, folder), close: () => local.close() }
    },
    close: () => rm(dir, { recursive: true, force: true }),
  }
}

export async function supabaseOperatorStore(
  harness?: SupabaseHarness,
): Promise<OperatorStore & { harness: SupabaseHarness }> {
  const running = harness ?? (await startSupabaseHarness())
  return {
    name: 'Supabase (the local stand-in)',
    harness: running,
    env: { SUPABASE_URL: running.url, SUPABASE_SERVICE_ROLE_KEY: running.serviceRoleKey },
    seed: (rows) => seedInto(running.db, rows),
    rows: () => rowsOf(running.db),
    sql: async <Row>(statement: string) => (await running.db.query<Row>(statement)).rows,
    async siteStore() {
      const store = supabaseStore({ url: running.url, key: running.anonKey })
      return { store, close: async () => {} }
    },
    close: () => running.close(),
  }
}

export const operatorStores = [
  ['the embedded database', embeddedOperatorStore],
  ['Supabase (the local stand-in)', supabaseOperatorStore],
] as const

export type CliRun = { code: number; stdout: string; stderr: string }

/** `npm run waitlist -- <argv>`, in this process, with `stdin` as its standard input. */
export async function runCli(
  argv: string[],
  env: Record<string, string>,
  options: { stdin?: string; pageSize?: number; importBatchSize?: number } = {},
): Promise<CliRun> {
  const stdout = sink()
  const stderr = sink()
  const code = await runWaitlistCli(argv, {
    env,
    stdin: Readable.from([Buffer.from(options.stdin ?? '')], { objectMode: false }),
    stdout: stdout.stream,
    stderr: stderr.stream,
    pageSize: options.pageSize,
    importBatchSize: options.importBatchSize,
  })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}
