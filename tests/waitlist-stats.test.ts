import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  operatorStores,
  runCli,
  supabaseOperatorStore,
  type OperatorStore,
} from './support/operator-stores'
import { allowForDatabaseStarts } from './support/timeouts'

allowForDatabaseStarts()

/** `npm run waitlist -- stats`: what the list holds, and how many a day, computed by the database. */
const DAY_MS = 24 * 60 * 60 * 1000
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** The last `n` UTC days, oldest first, as the figures list them. */
function lastDays(n: number, now = Date.now()): string[] {
  return Array.from({ length: n }, (_, i) => utcDay(now - (n - 1 - i) * DAY_MS))
}

/**
 * Runs `stats` and the check on a list dated around today; the run is
 * repeated if it happened to straddle midnight UTC, when "today" moved.
 */
async function aroundToday(run: (today: string) => Promise<void>): Promise<void> {
  for (;;) {
    const before = utcDay(Date.now())
    await run(before)
    if (utcDay(Date.now()) === before) return
  }
}

describe.each(operatorStores)('stats, on %s', (_name, open) => {
  let subject: OperatorStore
  const stats = (args: string[] = []) => runCli(['stats', ...args], subject.env)

  beforeEach(async () => {
    subject = await open()
  })
  afterEach(() => subject.close())

  it('shows zeros for an empty list: both sources, and each of the last 14 days', async () => {
    const json = await stats(['--format', 'json'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({
      total: 0,
      by_source: { hero_section: 0, cta_section: 0 },
      first_signup_at: null,
      latest_signup_at: null,
      days: lastDays(14).map((day) => ({ day, signups: 0 })),
    })
    const table = await stats()
    expect(table.stdout).toMatch(/^Signups {9}0\n {2}hero_section {2}0\n {2}cta_section {3}0\n/)
    expect(table.stdout).toContain('First signup    none yet\nLatest signup   none yet\n')
    expect(table.stdout).toContain('Signups per day, last 14 days (UTC):\n')
    expect(table.stdout.trimEnd().split('\n').slice(-14)).toEqual(
      lastDays(14).map((day) => `  ${day}  0`),
    )
  })

  it('counts each signup on its UTC day, across the midnight between two days', async () => {
    await aroundToday(async (today) => {
      const midnight = Date.parse(`${today}T00:00:00Z`)
      const yesterday = utcDay(midnight - DAY_MS)
      await subject.seed([
        ['old@example.com', 'cta_section', new Date(midnight - 30 * DAY_MS).toISOString()],
        ['late@example.com', 'hero_section', new Date(midnight - 1).toISOString()],
        ['early@example.com', 'cta_section', new Date(midnight).toISOString()],
        ['noon@example.com', 'hero_section', new Date(midnight + DAY_MS / 2).toISOString()],
      ])
      const result = await stats(['--days', '2', '--format', 'json'])
      expect(result.code).toBe(0)
      expect(JSON.parse(result.stdout)).toEqual({
        total: 4,
        by_source: { hero_section: 2, cta_section: 2 },
        first_signup_at: new Date(midnight - 30 * DAY_MS).toISOString().replace('.000Z', '+00:00'),
        latest_signup_at: new Date(midnight + DAY_MS / 2).toISOString().replace('.000Z', '+00:00'),
        days: [
          { day: yesterday, signups: 1 },
          { day: today, signups: 2 },
        ],
      })
      const table = await stats(['--days', '2'])
      expect(table.stdout).toContain(`  ${yesterday}  1\n  ${today}  2\n`)
    })
  })
})

describe('stats, asked for a bad number of days', () => {
  it('refuses a --days that is not a whole number from 1 to 3660', async () => {
    for (const days of ['0', '-1', '1.5', 'x', '3661']) {
      const result = await runCli(['stats', `--days=${days}`], {})
      expect(result.code).toBe(2)
      expect(result.stderr).toContain('--days must be a whole number from 1 to 3660')
    }
  })
})

describe('stats, on Supabase', () => {
  it('asks the database once, through its function, and never reads the rows', async () => {
    const subject = await supabaseOperatorStore()
    try {
      await subject.seed([['anna@example.com', 'hero_section']])
      subject.harness.requests.splice(0)
      expect((await runCli(['stats'], subject.env)).code).toBe(0)
      expect(subject.harness.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /rest/v1/rpc/waitlist_stats',
      ])
      expect(JSON.parse(subject.harness.requests[0]!.body)).toEqual({ days: 14 })
    } finally {
      await subject.close()
    }
  })

  it('is refused with the public key, before any request', async () => {
    const subject = await supabaseOperatorStore()
    try {
      const { harness } = subject
      const result = await runCli(['stats'], {
        SUPABASE_URL: harness.url,
        SUPABASE_SECRET_KEY: harness.anonKey,
      })
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/SUPABASE_SECRET_KEY holds the public key/)
      expect(harness.requests).toHaveLength(0)
    } finally {
      await subject.close()
    }
  })

  it('says to apply the migrations when the project lacks the function', async () => {
    const subject = await supabaseOperatorStore()
    try {
      await subject.harness.db.exec('drop function public.waitlist_stats(integer)')
      const result = await runCli(['stats'], subject.env)
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/Supabase has no function for this .*supabase db push/)
    } finally {
      await subject.close()
    }
  })
})
