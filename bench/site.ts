import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { openLocalDatabase } from '../lib/waitlist/local-schema'
import { startSupabaseHarness, type SupabaseHarness } from '../tests/harness/postgrest'
import { noSupabase } from '../tests/support/environments'

const NEXT_BIN = path.join('node_modules', 'next', 'dist', 'bin', 'next')

/** Where the site under test writes, and how the bench reads what it stored. */
export type BenchStore = {
  name: string
  env: Record<string, string>
  /** Counts stored rows per e-mail pattern (SQL `like`); for the embedded store, only once the site has stopped. */
  count(patterns: Record<string, string>): Promise<Record<string, number>>
  close(): Promise<void>
}

async function countIn(db: Pick<PGlite, 'query'>, patterns: Record<string, string>) {
  const counts: Record<string, number> = {}
  for (const [name, pattern] of Object.entries(patterns)) {
    const { rows } = await db.query<{ n: number }>(
      'select count(*)::int as n from public.waitlist where email like $1',
      [pattern],
    )
    counts[name] = rows[0]?.n ?? 0
  }
  return counts
}

/** The embedded database in a fresh temporary folder, read after the site lets go of it. */
export async function embeddedBenchStore(): Promise<BenchStore> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'waitlist-bench-'))
  return {
    name: 'embedded (PGlite, on disk)',
    env: { ...noSupabase, WAITLIST_DATA_DIR: dataDir },
    async count(patterns) {
      // One process owns a data folder: this open takes it over once the site has exited.
      const local = await openLocalDatabase(dataDir)
      try {
        return await countIn(local.db, patterns)
      } finally {
        await local.close()
      }
    },
    close: () => rm(dataDir, { recursive: true, force: true }),
  }
}

/** The local Supabase stand-in, in this process; its database is read directly. */
export async function supabaseBenchStore(): Promise<BenchStore> {
  const harness: SupabaseHarness = await startSupabaseHarness()
  return {
    name: 'Supabase stand-in (tests/harness)',
    env: { ...noSupabase, SUPABASE_URL: harness.url, SUPABASE_ANON_KEY: harness.anonKey },
    count: (patterns) => countIn(harness.db, patterns),
    close: () => harness.close(),
  }
}

export type RunningSite = { url: string; failureLines(): number; stop(): Promise<void> }

/** `next start` on the built site, loopback only, with the rate limit off. */
export async function startSite(port: number, store: BenchStore): Promise<RunningSite> {
  if (!existsSync(path.join('.next', 'BUILD_ID'))) {
    throw new Error('No production build found: run `npm run build` first.')
  }
  const url = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(
    process.execPath,
    [NEXT_BIN, 'start', '-H', '127.0.0.1', '-p', String(port)],
    {
      env: {
        ...process.env,
        ...store.env,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        WAITLIST_RATE_LIMIT_PER_MINUTE: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let failures = 0
  let output = ''
  const watch = (chunk: Buffer) => {
    const text = chunk.toString('utf8')
    output = (output + text).slice(-4000)
    failures += text.split('\n').filter((line) => line.includes('[waitlist] signup failed')).length
  }
  child.stdout?.on('data', watch)
  child.stderr?.on('data', watch)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The site exited at start:\n${output}`)
    try {
      if ((await fetch(url)).ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error(`The site did not answer within 60 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }

  return {
    url,
    failureLines: () => failures,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    },
  }
}
