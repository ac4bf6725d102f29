import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { PGlite, Transaction } from '@electric-sql/pglite'

/**
 * Applies supabase/migrations to a local database the way the Supabase CLI
 * applies them to a project (`supabase db push`), and records them in the
 * same table, so a local folder and a Supabase project read alike: each file
 * once, in version order, in its own transaction, its version (the file
 * name's timestamp prefix) written to supabase_migrations.schema_migrations
 * in that transaction. A migration that fails leaves the database as it was
 * before that file.
 */
export type Migration = { version: string; name: string; file: string; sql: string }

/** The Supabase CLI's pattern for a migration file name: `<timestamp>_<name>.sql`. */
const FILE_NAME = /^([0-9]+)_(.*)\.sql$/

/** A migration set this database cannot be brought to: said in full, never half applied. */
export class MigrationError extends Error {
  override name = 'MigrationError'
}

/** By name, not `instanceof`: the server's bundles may each hold a copy of this module. */
export function isMigrationError(error: unknown): error is MigrationError {
  return error instanceof Error && error.name === 'MigrationError'
}

/** Orders versions as the numbers they are: a longer timestamp is a later one. */
export function byVersion(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}

export async function readMigrations(dir: string): Promise<Migration[]> {
  const migrations: Migration[] = []
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.sql'))) {
    const match = FILE_NAME.exec(file)
    if (!match) {
      throw new MigrationError(
        `${path.join(dir, file)} is not named <timestamp>_<name>.sql, as the Supabase CLI requires.`,
      )
    }
    const sql = await readFile(path.join(dir, file), 'utf8')
    migrations.push({ version: match[1]!, name: match[2]!, file, sql })
  }
  migrations.sort((a, b) => byVersion(a.version, b.version))
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version === migrations[i - 1]!.version) {
      throw new MigrationError(
        `${migrations[i - 1]!.file} and ${migrations[i]!.file} share the version ${migrations[i]!.version}.`,
      )
    }
  }
  return migrations
}

/** The Supabase CLI's own statements (pkg/migration/history.go), so its tools read this table too. */
const HISTORY_TABLE = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
  alter table supabase_migrations.schema_migrations add column if not exists statements text[];
  alter table supabase_migrations.schema_migrations add column if not exists name text;
`

export async function hasHistory(db: Pick<PGlite, 'query'>): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `select to_regclass('supabase_migrations.schema_migrations') is not null as found`,
  )
  return rows[0]?.found ?? false
}

/** The versions the database records as applied, oldest first. */
export async function recordedVersions(db: Pick<PGlite, 'query'>): Promise<string[]> {
  const { rows } = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations',
  )
  return rows.map((row) => row.version).sort(byVersion)
}

/** The files still to apply, or a {@link MigrationError} when the history and the files disagree. */
function pending(migrations: Migration[], recorded: string[]): Migration[] {
  const known = new Set(migrations.map((m) => m.version))
  const latestFile = migrations.at(-1)?.version ?? ''
  const unknown = recorded.filter((version) => !known.has(version))
  const newer = unknown.filter((version) => byVersion(version, latestFile) > 0)
  if (newer.length > 0) {
    throw new MigrationError(
      `its schema is newer than this code: it records migration ${newer.join(', ')}, ` +
        `which supabase/migrations does not have. Run the newer code, or use another folder.`,
    )
  }
  if (unknown.length > 0) {
    throw new MigrationError(
      `it records migration ${unknown.join(', ')}, but supabase/migrations has no file with ` +
        `that version: restore the file (a migration already applied must not be renamed or deleted).`,
    )
  }
  const done = new Set(recorded)
  const latestRecorded = recorded.at(-1)
  const todo = migrations.filter((m) => !done.has(m.version))
  const early = latestRecorded && todo.find((m) => byVersion(m.version, latestRecorded) < 0)
  if (early) {
    // `supabase db push` refuses this too: it would apply the file out of order.
    throw new MigrationError(
      `${early.file} is older than ${latestRecorded}, the latest migration it has applied: ` +
        `give the file a timestamp after ${latestRecorded}.`,
    )
  }
  return todo
}

async function applyOne(tx: Transaction, migration: Migration): Promise<void> {
  await tx.exec(migration.sql)
  // The CLI stores the statements one by one; here the file is one statement's text, read the same way.
  await tx.query(
    'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
    [migration.version, migration.name, [migration.sql]],
  )
}

/** Applies the migrations `db` has not recorded yet; resolves to the versions applied now. */
export async function migrate(db: PGlite, migrations: Migration[]): Promise<string[]> {
  await db.exec(HISTORY_TABLE)
  const todo = pending(migrations, await recordedVersions(db))
  for (const migration of todo) {
    try {
      await db.transaction((tx) => applyOne(tx, migration))
    } catch (error) {
      throw new MigrationError(
        `migration ${migration.file} failed, and was rolled back: ${(error as Error).message}`,
        { cause: error },
      )
    }
  }
  return todo.map((m) => m.version)
}
