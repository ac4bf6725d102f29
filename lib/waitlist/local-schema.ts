import { mkdir, readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { IN_MEMORY_DATA_DIR } from '@/lib/env'

/**
 * The SQL a local PostgreSQL needs to look like a fresh Supabase project with
 * this project's migrations applied: Supabase's API roles and default grants,
 * then every file of supabase/migrations in order. The same files go to the
 * real project, so local and production rules cannot drift apart.
 */
export async function readLocalSchema(root = process.cwd()): Promise<string[]> {
  const supabaseDir = path.join(root, 'supabase')
  const migrationsDir = path.join(supabaseDir, 'migrations')
  const migrations = (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql')).sort()
  const files = [
    path.join(supabaseDir, 'local', 'platform-roles.sql'),
    ...migrations.map((name) => path.join(migrationsDir, name)),
  ]
  return Promise.all(files.map((file) => readFile(file, 'utf8')))
}

/**
 * A PGlite database in `dataDir` (or in memory, for {@link IN_MEMORY_DATA_DIR})
 * with the local schema applied: what the embedded store and the Supabase
 * stand-in both run on. The schema is re-runnable, so reopening is safe.
 */
export async function openLocalDatabase(dataDir = IN_MEMORY_DATA_DIR): Promise<PGlite> {
  const inMemory = dataDir === IN_MEMORY_DATA_DIR
  if (!inMemory) await mkdir(dataDir, { recursive: true })
  const db = await PGlite.create(inMemory ? undefined : dataDir)
  for (const sql of await readLocalSchema()) await db.exec(sql)
  return db
}
