import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { readMigrations } from '@/lib/waitlist/migrations'

/**
 * A real PostgreSQL server, reached with its own client, `psql`, one process
 * per connection: what PGlite, one connection in one process, cannot give,
 * namely transactions that truly run at once. The connection comes from the
 * usual libpq variables (PGHOST, PGUSER, …); with none set, a root user
 * connects as `postgres` over the local socket, as Debian's packages set up.
 */
const run = promisify(execFile)

function psqlCommand(database: string, extra: string[] = []): [string, string[]] {
  const args = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-v', 'VERBOSITY=verbose', '-d', database]
  const asPostgres = !process.env.PGHOST && !process.env.PGUSER && process.getuid?.() === 0
  return asPostgres
    ? ['runuser', ['-u', 'postgres', '--', 'psql', ...args, ...extra]]
    : ['psql', [...args, ...extra]]
}

export type Outcome = { ok: boolean; stdout: string; stderr: string }

/**
 * Runs `sql` in one psql process, printing bare values (no headers, no
 * alignment); resolves whether it succeeded, never rejects for an SQL error.
 */
export async function psql(database: string, sql: string, timeoutMs = 20_000): Promise<Outcome> {
  const [command, args] = psqlCommand(database, ['-A', '-t', '-c', sql])
  try {
    const { stdout, stderr } = await run(command, args, { timeout: timeoutMs })
    return { ok: true, stdout, stderr }
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    return { ok: false, stdout, stderr: stderr || String(error) }
  }
}

/** Why no PostgreSQL can be used here, or undefined when one answers. */
export async function postgresUnavailable(): Promise<string | undefined> {
  const { ok, stderr } = await psql('postgres', 'select 1', 5_000)
  return ok ? undefined : stderr.trim().split('\n')[0]
}

/** A new database with Supabase's roles and every migration applied, dropped by `drop()`. */
export async function migratedDatabase(): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `waitlist_test_${process.pid}_${Date.now()}`
  const created = await psql('postgres', `create database ${name}`)
  if (!created.ok) throw new Error(`create database ${name}: ${created.stderr}`)
  const root = process.cwd()
  const files = [
    await readFile(path.join(root, 'supabase', 'local', 'platform-roles.sql'), 'utf8'),
    ...(await readMigrations(path.join(root, 'supabase', 'migrations'))).map((m) => m.sql),
  ]
  for (const sql of files) {
    const applied = await psql(name, `begin;\n${sql}\ncommit;`)
    if (!applied.ok) throw new Error(`migrating ${name}: ${applied.stderr}`)
  }
  return {
    name,
    async drop() {
      await psql('postgres', `drop database if exists ${name} with (force)`)
    },
  }
}

/** A connection kept open, fed statements one step at a time, e.g. to hold a transaction open. */
export type Session = {
  /** Runs `sql` and resolves once psql has done it (what it printed, errors included). */
  step(sql: string): Promise<string>
  /** Ends the connection; resolves to everything it printed on stderr. */
  end(): Promise<string>
}

export function openSession(database: string): Session {
  const [command, args] = psqlCommand(database, ['-v', 'ON_ERROR_STOP=0'])
  const child: ChildProcessWithoutNullStreams = spawn(command, args)
  let stdout = ''
  let stderr = ''
  let steps = 0
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exited = once(child, 'exit')
  return {
    async step(sql) {
      steps += 1
      const marker = `-- step ${steps} done --`
      const from = stderr.length
      child.stdin.write(`${sql}\n\\echo '${marker}'\n`)
      while (!stdout.includes(marker)) {
        if (child.exitCode !== null) throw new Error(`psql exited: ${stderr}`)
        await Promise.race([once(child.stdout, 'data'), exited])
      }
      return stderr.slice(from)
    },
    async end() {
      child.stdin.end()
      await exited
      return stderr
    },
  }
}
