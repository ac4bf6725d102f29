import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

export const MIGRATIONS = 'supabase/migrations'

export type MigrationSet = { dir: string; remove(): Promise<void> }

/**
 * A folder of this project's migrations with `leftOut` (file names) left
 * out: what a database set up by older code, or by hand, has applied.
 */
export async function migrationsWithout(...leftOut: string[]): Promise<MigrationSet> {
  const files = await readdir(MIGRATIONS)
  const missing = leftOut.filter((name) => !files.includes(name))
  if (missing.length > 0) throw new Error(`No such migration: ${missing.join(', ')}`)
  const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'))
  for (const file of files.filter((name) => !leftOut.includes(name))) {
    await copyFile(path.join(MIGRATIONS, file), path.join(dir, file))
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}
