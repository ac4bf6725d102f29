import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { openLocalDatabase } from '../lib/waitlist/open-local-database'
import { startSupabaseHarness, type SupabaseHarness } from '../tests/harness/postgrest'
import { noSupabase } from '../tests/support/environments'
import { startNextServer } from '../tests/support/next-server'

/** Where the site under test writes, and how the bench reads what it stored. */
export type BenchStore = {
  name: string
  env: Record<string, string>
  /** How the limits are switched off for the throughput scenarios, as printed. */
  limitsOff: string
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
    // The embedded database takes its ceiling from the server's environment.
    env: { ...noSupabase, WAITLIST_DATA_DIR: dataDir, WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '0' },
    limitsOff: 'WAITLIST_RATE_LIMIT_PER_MINUTE=0, WAITLIST_SIGNUPS_PER_MINUTE_CEILING=0',
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

/** The local Supabase stand-in, in this process, with no ceiling; its database is read directly. */
export async function supabaseBenchStore(): Promise<BenchStore> {
  const harness: SupabaseHarness = await startSupabaseHarness({ signupCeilingPerMinute: 0 })
  return {
    name: 'Supabase stand-in (tests/harness)',
    env: { ...noSupabase, SUPABASE_URL: harness.url, SUPABASE_ANON_KEY: harness.anonKey },
    limitsOff: 'WAITLIST_RATE_LIMIT_PER_MINUTE=0, the stand-in started with a ceiling of 0',
    count: (patterns) => countIn(harness.db, patterns),
    close: () => harness.close(),
  }
}

export type RunningSite = { url: string; failureLines(): number; stop(): Promise<void> }

/**
 * No allowance per visitor: the bench posts from one address, many times a
 * second, and measures the signup path, not the limits. Each store switches
 * its ceiling off too.
 */
const NO_ALLOWANCE = { WAITLIST_RATE_LIMIT_PER_MINUTE: '0' } as const

/** `next start` on the built site, loopback only, with the limits off. */
export async function startSite(port: number, store: BenchStore): Promise<RunningSite> {
  let failures = 0
  const server = await startNextServer({
    port,
    env: { ...store.env, ...NO_ALLOWANCE },
    onOutput: (text) => {
      failures += text
        .split('\n')
        .filter((line) => line.includes('[waitlist] signup failed')).length
    },
  })
  return { url: server.url, failureLines: () => failures, stop: () => server.stop() }
}
