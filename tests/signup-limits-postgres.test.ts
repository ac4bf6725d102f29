import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  migratedDatabase,
  openSession,
  postgresUnavailable,
  psql,
  type Outcome,
} from './support/postgres'
import { clockAt } from './support/signup-limits'

/**
 * The limits at their boundary with transactions that truly run at once, on
 * a real PostgreSQL server (PGlite runs one transaction at a time, so it
 * cannot show this): inserts racing for the last places of the ceiling or of
 * one client's allowance store exactly as many as there were places.
 * Needs a PostgreSQL server; on a Debian machine with its package installed,
 * `pg_ctlcluster 15 main start` starts one.
 */
const unavailable = await postgresUnavailable()
if (unavailable) {
  console.warn(
    `Skipping the concurrency tests of the signup limits: no PostgreSQL server answered (${unavailable}). ` +
      'Start one (pg_ctlcluster 15 main start) or point PGHOST and PGUSER at one.',
  )
}

const CLIENT_HEADERS = JSON.stringify({
  'x-waitlist-client': 'concurrent-client-0001',
  'x-waitlist-allowance': '2',
})

/** One signup as PostgREST runs it: a transaction as anon, the request's headers set, the insert. */
function signupSql(email: string, headers = '{}'): string {
  return `begin;
    set local role anon;
    select set_config('request.headers', '${headers}', true);
    insert into public.waitlist (email, source) values ('${email}', 'hero_section');`
}

describe.skipIf(unavailable !== undefined)(
  'the signup limits on PostgreSQL, under concurrency',
  () => {
    let database: { name: string; drop(): Promise<void> }

    beforeAll(async () => {
      database = await migratedDatabase()
    }, 60_000)
    afterAll(() => database?.drop())
    beforeEach(async () => {
      const reset = await psql(
        database.name,
        `truncate public.waitlist, waitlist_private.recent_signups;
       update waitlist_private.signup_limits set signups_per_minute = 5;
       ${clockAt(new Date('2030-01-01T12:00:00Z'))};`,
      )
      expect(reset.stderr).toBe('')
    })

    const stored = async () => {
      const { stdout } = await psql(database.name, 'select count(*) from public.waitlist', 5_000)
      return Number(/\d+/.exec(stdout)?.[0])
    }
    const fill = async (count: number, headers?: string) => {
      for (let i = 0; i < count; i += 1) {
        const { ok, stderr } = await psql(
          database.name,
          `${signupSql(`before-${i}@example.com`, headers)} commit;`,
        )
        expect(ok, stderr).toBe(true)
      }
    }
    /** Signups sent at once, each on its own connection; resolves once every one has ended. */
    const race = (count: number, tag: string, headers?: string) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          psql(database.name, `${signupSql(`${tag}-${i}@example.com`, headers)} commit;`),
        ),
      )
    const refusedOverLimit = (outcomes: Outcome[]) =>
      outcomes.filter((outcome) => !outcome.ok && outcome.stderr.includes('PT429')).length
    /** Resolves true once `count` transactions wait for the limits' lock, false if `done` settles first. */
    const waiting = async (count: number, done: Promise<unknown>) => {
      let finished = false
      void done.then(() => (finished = true))
      while (!finished) {
        const { stdout } = await psql(
          database.name,
          "select count(*) from pg_locks where locktype = 'advisory' and not granted",
          5_000,
        )
        if (Number(/\d+/.exec(stdout)?.[0]) >= count) return true
        await sleep(50)
      }
      return false
    }

    /**
     * One signup takes the last place and holds its transaction open; eight
     * more arrive meanwhile and must wait for it, then count it.
     */
    async function lastPlaceRace() {
      await fill(4)
      const first = openSession(database.name)
      await first.step(signupSql('first@example.com'))
      const others = race(8, 'meanwhile')
      const waited = await waiting(8, others)
      await first.step('commit;')
      await first.end()
      return { waited, others: await others, rows: await stored() }
    }

    it('lets two transactions at the last place of the ceiling store one signup, not two', async () => {
      const { waited, others, rows } = await lastPlaceRace()
      // All eight were at the boundary at once, waiting for the first to commit.
      expect(waited).toBe(true)
      expect(rows).toBe(5)
      expect(refusedOverLimit(others)).toBe(8)
    }, 60_000)

    it('fails that race without its lock: the test can tell', async () => {
      // The same function with its advisory lock taken out, on this test database only.
      const { stdout } = await psql(
        database.name,
        `select pg_get_functiondef('waitlist_private.admit_signup(text, integer)'::regprocedure)`,
      )
      const body = stdout.trim()
      expect(body).toContain('pg_advisory_xact_lock')
      const unlocked = body.replace(/perform pg_advisory_xact_lock\([^;]*\);/g, 'null;')
      const replaced = await psql(database.name, unlocked)
      expect(replaced.ok, replaced.stderr).toBe(true)
      try {
        const { waited, rows } = await lastPlaceRace()
        expect(waited).toBe(false)
        // The first's signup, not yet committed, is invisible to the others: at least one of
        // them takes the place it holds, and both are stored.
        expect(rows).toBeGreaterThan(5)
      } finally {
        await psql(database.name, body)
      }
    }, 60_000)

    it('stores exactly the places left when many signups race for them', async () => {
      await fill(2)
      const outcomes = await race(12, 'crowd')
      expect(await stored()).toBe(5)
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(3)
      expect(refusedOverLimit(outcomes)).toBe(9)
    }, 60_000)

    it('holds one client to its allowance when its signups race, from any number of servers', async () => {
      const outcomes = await race(10, 'same-client', CLIENT_HEADERS)
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(2)
      expect(refusedOverLimit(outcomes)).toBe(8)
      expect(await stored()).toBe(2)
    }, 60_000)

    it('holds the allowance with the ceiling off, when only the client is locked', async () => {
      await psql(database.name, 'update waitlist_private.signup_limits set signups_per_minute = 0')
      const outcomes = await race(10, 'no-ceiling', CLIENT_HEADERS)
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(2)
      expect(await stored()).toBe(2)
    }, 60_000)
  },
)
