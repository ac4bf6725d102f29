import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openLocalDatabase, type LocalDatabase } from '@/lib/waitlist/open-local-database'
import { readMigrations } from '@/lib/waitlist/migrations'
import { allowForDatabaseStarts } from './support/timeouts'

allowForDatabaseStarts()

/**
 * The migration runner on real folders, with fixture migrations written per
 * test. Each fixture leaves a trace in a `runs` table, so a migration run
 * twice shows as two rows, and creates a table without `if not exists`, so a
 * second run would fail outright.
 */
let dir: string
let dataDir: string
let migrationsDir: string

const fixtures = {
  '20240101000000_first.sql': `
    create table public.runs (version text not null);
    create table public.first_table (id int);
    insert into public.runs values ('20240101000000');`,
  '20240201000000_second.sql': `
    create table public.second_table (id int);
    insert into public.runs values ('20240201000000');`,
}

async function write(files: Record<string, string>) {
  for (const [name, sql] of Object.entries(files)) {
    await writeFile(path.join(migrationsDir, name), sql)
  }
}

async function withDatabase<T>(run: (local: LocalDatabase) => Promise<T>): Promise<T> {
  const local = await openLocalDatabase(dataDir, { migrationsDir })
  try {
    return await run(local)
  } finally {
    await local.close()
  }
}

const open = () => withDatabase(async (local) => local.applied)

async function state(local: LocalDatabase) {
  const history = await local.db.query<{ version: string; name: string; statements: string[] }>(
    'select version, name, statements from supabase_migrations.schema_migrations order by version',
  )
  const runs = await local.db.query<{ version: string }>('select version from public.runs')
  const tables = await local.db.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' order by table_name`,
  )
  return {
    history: history.rows,
    runs: runs.rows.map((row) => row.version),
    tables: tables.rows.map((row) => row.name),
  }
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'))
  dataDir = path.join(dir, 'data')
  migrationsDir = path.join(dir, 'migrations')
  await mkdir(migrationsDir)
  await write(fixtures)
})

afterEach(() => rm(dir, { recursive: true, force: true }))

describe('the migration runner', () => {
  it('applies every migration to a fresh folder, in order, and records each as the Supabase CLI does', async () => {
    expect(await open()).toEqual(['20240101000000', '20240201000000'])
    await withDatabase(async (local) => {
      const { history, runs, tables } = await state(local)
      expect(history).toEqual([
        {
          version: '20240101000000',
          name: 'first',
          statements: [fixtures['20240101000000_first.sql']],
        },
        {
          version: '20240201000000',
          name: 'second',
          statements: [fixtures['20240201000000_second.sql']],
        },
      ])
      expect(runs).toEqual(['20240101000000', '20240201000000'])
      expect(tables).toEqual(['first_table', 'runs', 'second_table'])
    })
  })

  it('applies nothing to a folder that is up to date, and runs nothing again', async () => {
    await open()
    expect(await open()).toEqual([])
    await withDatabase(async (local) => {
      expect((await state(local)).runs).toEqual(['20240101000000', '20240201000000'])
    })
  })

  it('applies a new migration once, and only that one', async () => {
    await open()
    await write({
      '20240301000000_third.sql': `insert into public.runs values ('20240301000000');`,
    })
    expect(await open()).toEqual(['20240301000000'])
    expect(await open()).toEqual([])
    await withDatabase(async (local) => {
      const { history, runs } = await state(local)
      expect(history.map((row) => row.version)).toEqual([
        '20240101000000',
        '20240201000000',
        '20240301000000',
      ])
      expect(runs).toEqual(['20240101000000', '20240201000000', '20240301000000'])
    })
  })

  it('leaves the folder as it was when a migration fails, and names the file', async () => {
    await open()
    const before = await withDatabase(state)
    await write({
      '20240301000000_broken.sql': `
        create table public.half_made (id int);
        insert into public.runs values ('20240301000000');
        select 1 / 0;`,
    })
    await expect(open()).rejects.toThrow(
      /embedded database at .* cannot be opened: migration 20240301000000_broken\.sql failed, and was rolled back: division by zero/,
    )

    // Fixed, it applies cleanly: nothing of the failed attempt was left behind.
    await rm(path.join(migrationsDir, '20240301000000_broken.sql'))
    expect(await withDatabase(state)).toEqual(before)
  })

  it('applies earlier new files before a failing one, each in its own transaction', async () => {
    await write({
      '20240301000000_third.sql': `insert into public.runs values ('20240301000000');`,
      '20240401000000_broken.sql': `select 1 / 0;`,
    })
    await expect(open()).rejects.toThrow(/20240401000000_broken\.sql failed/)
    await rm(path.join(migrationsDir, '20240401000000_broken.sql'))
    await withDatabase(async (local) => {
      expect((await state(local)).runs).toEqual([
        '20240101000000',
        '20240201000000',
        '20240301000000',
      ])
    })
  })

  it('refuses a folder that records a migration whose file is gone', async () => {
    await open()
    await rm(path.join(migrationsDir, '20240101000000_first.sql'))
    await expect(open()).rejects.toThrow(
      /records migration 20240101000000, but supabase\/migrations has no file with that version/,
    )
  })

  it('refuses a folder whose schema is newer than the code', async () => {
    await write({ '20240301000000_third.sql': `select 1;` })
    await open()
    await rm(path.join(migrationsDir, '20240301000000_third.sql'))
    await expect(open()).rejects.toThrow(
      /its schema is newer than this code: it records migration 20240301000000/,
    )
  })

  it('refuses a new file dated before the latest applied one, as supabase db push does', async () => {
    await open()
    await write({ '20240115000000_late.sql': `select 1;` })
    await expect(open()).rejects.toThrow(
      /20240115000000_late\.sql is older than 20240201000000, the latest migration it has applied/,
    )
  })

  it('refuses a file not named <timestamp>_<name>.sql', async () => {
    await write({ 'add_column.sql': `select 1;` })
    await expect(open()).rejects.toThrow(/add_column\.sql is not named <timestamp>_<name>\.sql/)
  })

  it('lets go of the folder when it refuses it, so it can be opened once fixed', async () => {
    await write({ '20240301000000_broken.sql': `select 1 / 0;` })
    await expect(open()).rejects.toThrow(/failed/)
    await rm(path.join(migrationsDir, '20240301000000_broken.sql'))
    // The two good files went in before the broken one failed.
    await expect(open()).resolves.toEqual([])
  })
})

describe('the project’s own migrations', () => {
  it('adopt a folder made before migrations were recorded, keeping its rows', async () => {
    // What earlier versions did at every start: the roles, then every file, nothing recorded.
    const legacy = await PGlite.create(dataDir)
    await legacy.exec(await readFile('supabase/local/platform-roles.sql', 'utf8'))
    const first = (await readMigrations('supabase/migrations'))[0]!
    await legacy.exec(first.sql)
    await legacy.query(
      "insert into public.waitlist (email, source) values ('kept@example.com', 'hero_section')",
    )
    await legacy.close()

    const local = await openLocalDatabase(dataDir)
    try {
      const files = await readMigrations('supabase/migrations')
      expect(local.applied).toEqual(files.map((file) => file.version))
      const { rows } = await local.db.query('select email from public.waitlist')
      expect(rows).toEqual([{ email: 'kept@example.com' }])
    } finally {
      await local.close()
    }
  })
})
