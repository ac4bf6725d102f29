import { byVersion, type Migration } from '@/lib/waitlist/migrations'
import {
  SCHEMA_CHECK_MIGRATION,
  SIGNUP_LIMITS_MIGRATION,
  type SchemaReport,
} from '@/lib/waitlist/schema-check'
import { ReadError } from './reader'
import { table } from './table'

export const MIGRATIONS_DIR = 'supabase/migrations'

/** What a store says of its schema, for `npm run waitlist -- check`. */
export type SchemaState = {
  /** The store, as the commands name it. */
  where: string
  kind: 'supabase' | 'embedded'
  /**
   * The migration versions the database records as applied: null where it
   * records none, undefined where the record cannot be read at all (a
   * project without the check function, which is what reads it there).
   */
  applied: readonly string[] | null | undefined
  /** The limits as the check function reports them; undefined where the database lacks it. */
  limits: Pick<SchemaReport, 'signupLimits' | 'signupsPerMinute'> | undefined
}

/** The check function's answer, or a {@link ReadError} when it came back in a shape this code does not know. */
export function knownReport(report: SchemaReport | undefined, where: string): SchemaReport {
  if (!report)
    throw new ReadError(`${where} answered the check in a shape this code does not know.`)
  return report
}

/** All is well, with the report to print; or the one thing to fix, said in one line. */
export type Verdict = { ok: true; report: string } | { ok: false; problem: string }

const fileOf = (migration: Migration) => `${MIGRATIONS_DIR}/${migration.file}`

function listed(items: readonly string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** What brings the store up to date; `outOfOrder` when a missing file is older than one applied. */
function howToApply({ kind }: SchemaState, outOfOrder = false): string {
  if (kind === 'embedded') {
    return 'start the server on this folder (npm run dev or npm start), which applies them as it opens it, then run this again'
  }
  // `supabase db push` refuses a file older than the newest it applied, unless told to include all.
  return `apply them with \`supabase db push${outOfOrder ? ' --include-all' : ''}\`, then run this again`
}

function noRecord(state: SchemaState, files: Migration[]): string {
  if (state.kind === 'embedded') {
    return `${state.where} records no migration as applied: ${howToApply(state)}.`
  }
  return (
    `${state.where} records no migration as applied (supabase_migrations.schema_migrations is ` +
    `${state.applied === null ? 'missing' : 'empty'}): the Supabase CLI records what \`supabase db push\` ` +
    `applies, never a file run by hand in the SQL editor. If every file of ${MIGRATIONS_DIR} was run ` +
    `by hand, record each with \`supabase migration repair --status applied <version>\` ` +
    `(${files.map((m) => m.version).join(', ')}); else ${howToApply(state)}.`
  )
}

/** The first thing wrong with the schema, or undefined when every migration is applied. */
function migrationProblem(state: SchemaState, files: Migration[]): string | undefined {
  const { where, applied } = state
  if (applied === undefined) {
    return (
      `migration ${SCHEMA_CHECK_MIGRATION} is not applied to ${where}, so nothing more can be ` +
      `read of it (older migrations may be missing too): ${howToApply(state)}.`
    )
  }
  if (applied === null || applied.length === 0) return noRecord(state, files)
  const known = new Set(files.map((m) => m.version))
  const unknown = applied.filter((version) => !known.has(version))
  if (unknown.length > 0) {
    return (
      `${where} records migration ${listed(unknown)} as applied, which ${MIGRATIONS_DIR} here does ` +
      `not have: check it from the code that applied it (an applied migration is never renamed or deleted).`
    )
  }
  const done = new Set(applied)
  const missing = files.filter((m) => !done.has(m.version))
  if (missing.length === 0) return undefined
  const newest = [...applied].sort(byVersion).at(-1)!
  const outOfOrder = missing.some((m) => byVersion(m.version, newest) < 0)
  const limitsToo = missing.some((m) => fileOf(m) === SIGNUP_LIMITS_MIGRATION)
  return (
    `${missing.length === 1 ? 'migration' : 'migrations'} ${listed(missing.map(fileOf))} ` +
    `${missing.length === 1 ? 'is' : 'are'} not applied to ${where}` +
    `${limitsToo ? ', so nothing limits how fast signups are stored' : ''}: ${howToApply(state, outOfOrder)}.`
  )
}

function ceilingText(perMinute: number): string {
  return perMinute > 0
    ? `${perMinute} new signups a minute from everyone together`
    : 'none (0): new signups from everyone together are not limited'
}

/** Whether the store's schema is as this code's migrations make it: every file applied, the limits in place. */
export function judgeSchema(state: SchemaState, files: Migration[]): Verdict {
  const problem = migrationProblem(state, files)
  if (problem) return { ok: false, problem }
  const { where, limits } = state
  if (!limits) {
    return {
      ok: false,
      problem:
        `${where} records every migration as applied, yet lacks public.waitlist_schema_check(): ` +
        `re-create it as ${SCHEMA_CHECK_MIGRATION} does, then run this again.`,
    }
  }
  if (!limits.signupLimits || limits.signupsPerMinute === null) {
    return {
      ok: false,
      problem:
        `the signup limits are not in place on ${where}, so nothing limits how fast signups are ` +
        `stored: ${SIGNUP_LIMITS_MIGRATION} is recorded as applied, but its trigger limit_signups on ` +
        `public.waitlist, or its settings in waitlist_private.signup_limits, is missing or disabled. ` +
        `Re-create them as that file does, then run this again.`,
    }
  }
  return {
    ok: true,
    report: table([
      ['Database', where],
      ['Migrations', `all ${files.length} applied, the newest ${fileOf(files.at(-1)!)}`],
      ['Signup limits', 'in place'],
      ['Ceiling', ceilingText(limits.signupsPerMinute)],
    ]),
  }
}
