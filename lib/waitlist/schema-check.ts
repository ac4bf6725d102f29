import type { PGlite } from '@electric-sql/pglite'
import { z } from 'zod'

/** The function of supabase/migrations that reports on the schema, for the service role only. */
export const SCHEMA_CHECK_FUNCTION = 'waitlist_schema_check'

/** The migration that adds it: a database without it cannot say more of itself. */
export const SCHEMA_CHECK_MIGRATION = 'supabase/migrations/20261124120000_schema_check.sql'

/** The migration that gives the database its signup limits. */
export const SIGNUP_LIMITS_MIGRATION = 'supabase/migrations/20261123120000_signup_limits.sql'

/** What `public.waitlist_schema_check()` answers. */
export type SchemaReport = {
  /** Migration versions the database records as applied; null where it keeps no record. */
  appliedMigrations: string[] | null
  /** Whether the trigger that keeps the signup limits is on the table, with its settings. */
  signupLimits: boolean
  /** The ceiling on new signups a minute from everyone together (0: none); null without the limits. */
  signupsPerMinute: number | null
}

const reportSchema = z
  .object({
    applied_migrations: z.array(z.string()).nullable(),
    signup_limits: z.boolean(),
    signups_per_minute: z.number().int().nonnegative().nullable(),
  })
  .transform((raw): SchemaReport => ({
    appliedMigrations: raw.applied_migrations,
    signupLimits: raw.signup_limits,
    signupsPerMinute: raw.signups_per_minute,
  }))

/** The answer checked (on Supabase it crosses a network); undefined when it is not one. */
export function parseSchemaReport(value: unknown): SchemaReport | undefined {
  const parsed = reportSchema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

/** Asks a local database, as the service role: the role the operator has on Supabase. */
export async function readLocalSchemaReport(
  db: Pick<PGlite, 'transaction'>,
): Promise<SchemaReport | undefined> {
  const { rows } = await db.transaction(async (tx) => {
    await tx.exec('set local role service_role')
    return tx.query<{ report: unknown }>(`select public.${SCHEMA_CHECK_FUNCTION}() as report`)
  })
  return parseSchemaReport(rows[0]?.report)
}

/** Whether a local database has the check function: a folder made by older code may not. */
export async function hasSchemaCheck(db: Pick<PGlite, 'query'>): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `select to_regprocedure('public.${SCHEMA_CHECK_FUNCTION}()') is not null as found`,
  )
  return rows[0]?.found ?? false
}
