import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'

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
