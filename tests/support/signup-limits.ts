import type { PGlite } from '@electric-sql/pglite'

type Database = Pick<PGlite, 'exec' | 'query'>

/** The SQL that stops the database's signup clock at `at`. */
export function clockAt(at: Date): string {
  return `create or replace function waitlist_private.signup_clock()
            returns timestamptz language sql volatile set search_path = ''
            as $$ select '${at.toISOString()}'::timestamptz $$`
}

export type SignupClock = {
  /** Moves the database's clock on by `ms`. */
  advance(ms: number): Promise<void>
}

/**
 * Stops the clock the signup limits count by (`waitlist_private.signup_clock`)
 * at `start`, so a test can cross a minute without waiting for it.
 */
export async function holdSignupClock(
  db: Database,
  start = new Date('2030-01-01T12:00:00Z'),
): Promise<SignupClock> {
  let at = start.getTime()
  await db.exec(clockAt(new Date(at)))
  return {
    async advance(ms) {
      at += ms
      await db.exec(clockAt(new Date(at)))
    },
  }
}

/** Sets the ceiling on new signups a minute from everyone together (0: none), as the operator would. */
export async function setCeiling(db: Database, perMinute: number): Promise<void> {
  await db.query('update waitlist_private.signup_limits set signups_per_minute = $1', [perMinute])
}

/** The signups the limits still keep, however old. */
export async function keptAdmissions(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from waitlist_private.recent_signups',
  )
  return rows[0]?.n ?? 0
}
