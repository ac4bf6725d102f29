import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'

// Applies supabase/migrations to an embedded database as `supabase db push` does, in the CLI's table.

const FILE_NAME = /^(\d+)_(.*)\.sql$/

export async function readMigrations() {
  const dir = path.join('supabase', 'migrations')
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort()
  return Promise.all(
    files.map(async (file) => {
      const [, version, name] = FILE_NAME.exec(file) ?? []
      if (!version || !name)
        throw new Error(
          `${file} is not named <timestamp>_<name>.sql, as the Supabase CLI requires.`,
        )
      return { version, name, file, sql: await readFile(path.join(dir, file), 'utf8') }
    }),
  )
}

const HISTORY = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations
    (version text not null primary key, statements text[], name text);`

/** Applies what `db` has not recorded, returning the files; refuses a database newer than this code. */
export async function migrate(db: PGlite): Promise<string[]> {
  const migrations = await readMigrations()
  const { rows } = await db.query<{ fresh: boolean }>(
    `select to_regclass('supabase_migrations.schema_migrations') is null as fresh`,
  )
  if (rows[0]?.fresh)
    await db.exec(await readFile(path.join('supabase', 'local', 'platform.sql'), 'utf8'))
  await db.exec(HISTORY)
  const history = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations',
  )
  const recorded = new Set(history.rows.map((row) => row.version))
  const unknown = [...recorded].filter((version) => !migrations.some((m) => m.version === version))
  if (unknown.length > 0)
    throw new Error(
      `the database records migration ${unknown.join(', ')}, which supabase/migrations does not have: ` +
        `open it with the code that applied it, or use another data folder (docs/supabase.md#a-database-that-applied-an-earlier-schema).`,
    )
  const applied: string[] = []
  for (const { version, name, file, sql } of migrations.filter((m) => !recorded.has(m.version))) {
    const record =
      'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)'
    try {
      await db.transaction(async (tx) => {
        await tx.exec(sql)
        await tx.query(record, [version, name, [sql]])
      })
    } catch (error) {
      throw new Error(`migration ${file} failed and was rolled back: ${(error as Error).message}`, {
        cause: error,
      })
    }
    applied.push(file)
  }
  return applied
}
