import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, mkdtempDisposable, readdir, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { inject } from 'vitest'
import type { TestProject } from 'vitest/node'

// PostgreSQL 15 as a Supabase project meets the operator: the owner, like Supabase's `postgres`, is
// no superuser. `setup` (Vitest's globalSetup) makes that role once; each test file, its database.
declare module 'vitest' {
  export interface ProvidedContext {
    postgres: Cluster | { reason: string }
  }
}

const exec = promisify(execFile)
const ROOT = process.cwd()
const MIGRATIONS = path.join(ROOT, 'supabase', 'migrations')
const QUIET = {
  DO_NOT_TRACK: '1',
  SUPABASE_NO_UPDATE_NOTIFIER: '1',
  SUPABASE_TELEMETRY_DISABLED: '1',
}

/** The project's Supabase CLI run with `args`, quietly: resolves to what it prints. */
export async function supabase(args: string[], env: Record<string, string> = {}) {
  const bin = path.join(ROOT, 'node_modules', '.bin', 'supabase')
  const options = { env: { ...process.env, ...QUIET, ...env }, timeout: 60_000 }
  return (await exec(bin, args, options)).stdout
}

/** SQL run by the cluster's superuser: root runs psql as `postgres`; anyone else as libpq's variables say. */
export async function superuser(sql: string, database = 'postgres'): Promise<string> {
  const runAs = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : []
  const psql = ['psql', '-XqAt', '-v', 'ON_ERROR_STOP=1', '-d', database, '-c', sql]
  const [command, ...args] = [...runAs, ...psql]
  return (await exec(command!, args, { timeout: 20_000 })).stdout.trim()
}

export type Cluster = { owner: string; password: string; port: string }

/** The role that owns the databases pushed, made on the cluster; `drop` removes it and what it owns. */
export async function makeOwner(): Promise<Cluster & { drop(): Promise<void> }> {
  const port = await superuser(`select current_setting('port')`)
  const owner = `waitlist_test_${process.pid}`
  const password = randomBytes(18).toString('base64url')
  await superuser(
    `create role ${owner} login password '${password}' nosuperuser createrole createdb`,
  )
  return {
    owner,
    password,
    port,
    async drop() {
      // A test file that failed before its drop() leaves its database behind: it goes too.
      const left = await superuser(
        `select datname from pg_database where datdba = '${owner}'::regrole`,
      )
      for (const name of left.split('\n').filter(Boolean))
        await superuser(`drop database if exists "${name}" with (force)`)
      await superuser(`drop role ${owner}`)
    },
  }
}

export async function setup(project: TestProject) {
  let made: Awaited<ReturnType<typeof makeOwner>>
  try {
    made = await makeOwner()
  } catch (error) {
    const said = (error as { stderr?: string }).stderr || (error as Error).message
    const reason = said.trim().split('\n')[0]!
    // CI provisions PostgreSQL (.ci/run): there, a test skipped for want of it would hide a failure.
    if (process.env.CI)
      throw new Error(`PostgreSQL 15 is needed on CI, and does not answer: ${reason}`)
    console.warn(
      `PostgreSQL 15 is not running here (${reason}): skipping the tests on it; start it with pg_ctlcluster 15 main start`,
    )
    return project.provide('postgres', { reason })
  }
  const { owner, password, port } = made
  project.provide('postgres', { owner, password, port })
  return made.drop
}

/** Why the PostgreSQL half cannot run here, in one line; undefined when it can. */
export function postgresUnavailable(): string | undefined {
  const given = inject('postgres')
  if (!given) return 'tests/support/postgres.ts is not among vitest.config.ts globalSetup'
  return 'reason' in given ? given.reason : undefined
}

/** A database as `supabase db push` leaves one, migrations applied and recorded; its URL. */
export async function pushedDatabase() {
  const given = inject('postgres')
  if (!given || 'reason' in given)
    throw new Error(`PostgreSQL is not available: ${postgresUnavailable()}`)
  return pushDatabase(given)
}

/** The same, on the cluster `makeOwner` made ready: for a script run outside the tests (bench/database.ts). */
export async function pushDatabase({ owner, password, port }: Cluster) {
  const name = `${owner}_${randomBytes(4).toString('hex')}`
  const url = `postgresql://${owner}:${password}@127.0.0.1:${port}/${name}?sslmode=disable`
  const platform = await readFile(path.join(ROOT, 'supabase', 'local', 'platform.sql'), 'utf8')
  await superuser(`create database ${name} owner ${owner}`)
  // The API roles are the cluster's, made by the first file; as on Supabase, the owner may act
  // as them and grant on `extensions`, whose schema and pgcrypto only the superuser could make.
  await superuser(
    `${platform}; grant anon, authenticated, service_role to ${owner};
     grant all on schema extensions to ${owner} with grant option;`,
    name,
  )
  const owned = new pg.Client({ connectionString: url })
  await owned.connect()
  const drop = () => superuser(`drop database if exists ${name} with (force)`).then(() => {})
  await using scratch = await mkdtempDisposable(path.join(os.tmpdir(), 'waitlist-push-'))
  try {
    // Default privileges are per role: the owner's apply to what it creates.
    await owned.query(platform)
    // A project of its own holding the migrations; the CLI's home (its traces) goes with it.
    const files = (await readdir(MIGRATIONS)).filter((file) => file.endsWith('.sql')).sort()
    await cp(MIGRATIONS, path.join(scratch.path, 'supabase', 'migrations'), {
      recursive: true,
      filter: (file) => file === MIGRATIONS || files.includes(path.basename(file)),
    })
    const push = ['db', 'push', '--workdir', scratch.path, '--db-url', url, '--yes']
    await supabase(push, { SUPABASE_HOME: path.join(scratch.path, '.home') })
    const { rows } = await owned.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations order by version',
    )
    const pushed = rows.map((row) => row.version).join(', ')
    const expected = files.map((file) => file.split('_')[0]).join(', ')
    if (pushed !== expected) throw new Error(`supabase db push recorded ${pushed}, not ${expected}`)
    return { url, name, drop }
  } catch (error) {
    await drop()
    throw error
  } finally {
    await owned.end()
  }
}
