import pg from 'pg'
import { WAITLIST_SOURCES } from '@/lib/site'
import type { Database } from './database'
import type { Erasures, ImportRow, ListRow, Rejected } from './list-files'

/**
 * What each command asks of the database, in SQL, the same on Supabase and
 * on the embedded database. Each statement is one message with its values
 * written in as literals (pg's escapeLiteral), so on the embedded database no
 * signup can fall between its parts; none holds a transaction open.
 */
type Db = Pick<Database, 'client' | 'kind' | 'where'>

const lit = (value: string) => pg.escapeLiteral(value)

async function rows<T>(db: Db, sql: string): Promise<T[]> {
  const result = await db.client.query(sql)
  return (Array.isArray(result) ? result.at(-1)! : result).rows as T[]
}

export async function count(db: Db): Promise<number> {
  const [row] = await rows<{ n: number }>(db, 'select count(*)::int as n from public.waitlist')
  return row!.n
}

/**
 * The list in signup order (`created_at`, then `id`: an imported row keeps its
 * date), a page at a time, each page read after the last: memory holds one page.
 */
export async function* pages(db: Db, size = 1000): AsyncGenerator<ListRow[]> {
  for (let after = "('-infinity'::timestamptz, 0)"; ;) {
    const page = await rows<ListRow & { id: number }>(
      db,
      `select id::int, email, source, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at
         from public.waitlist where (created_at, id) > ${after} order by created_at, id limit ${size}`,
    )
    if (page.length === 0) return
    yield page.map(({ email, source, created_at }) => ({ email, source, created_at }))
    const last = page.at(-1)!
    after = `(${lit(last.created_at)}::timestamptz, ${last.id})`
  }
}

export type Stats = {
  total: number
  /** Signups of addresses erased on request, held back by the database: not stored, answered as stored. */
  held_back: number
  by_source: Record<string, number>
  first_signup_at: string | null
  latest_signup_at: string | null
  days: { day: string; signups: number }[]
}

/** Figures computed where the rows are: totals, per form, per UTC day for the last `days` days. */
export async function stats(db: Db, days: number): Promise<Stats> {
  const iso = (column: string) =>
    `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`
  const [row] = await rows<{ stats: Stats }>(
    db,
    `with per_day as (
       select (created_at at time zone 'UTC')::date as day, source, count(*)::int as n,
              min(created_at) as first_at, max(created_at) as latest_at
         from public.waitlist group by 1, 2)
     select json_build_object(
       'total', coalesce((select sum(n) from per_day), 0)::int,
       'held_back', (select signups from waitlist_private.held_back),
       'by_source', coalesce((select json_object_agg(source, n) from (select source, sum(n)::int as n from per_day group by source) s), '{}'),
       'first_signup_at', (select ${iso('min(first_at)')} from per_day),
       'latest_signup_at', (select ${iso('max(latest_at)')} from per_day),
       'days', (select json_agg(json_build_object('day', d.day::date::text, 'signups', coalesce((select sum(n) from per_day p where p.day = d.day::date), 0)::int) order by d.day)
                  from generate_series((now() at time zone 'UTC')::date - ${days - 1}, (now() at time zone 'UTC')::date, interval '1 day') as d(day))
     ) as stats`,
  )
  const known = Object.fromEntries(WAITLIST_SOURCES.map((source) => [source, 0]))
  return { ...row!.stats, by_source: { ...known, ...row!.stats.by_source } }
}

/** Signups of erased addresses the database held back. */
async function heldBack(db: Db): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    'select signups::int as n from waitlist_private.held_back',
  )
  return row!.n
}

/**
 * Erases the address, in any case, and remembers that it was erased (as a
 * keyed hash, never the address), so no later import adds it back; true
 * when it was on the list.
 */
export async function erase(db: Db, address: string): Promise<boolean> {
  const [row] = await rows<{ n: number }>(
    db,
    `with gone as (delete from public.waitlist where lower(email) = lower(${lit(address)}) returning 1),
          marked as (insert into waitlist_private.erasures (email_hash) values (waitlist_private.email_hash(${lit(address)}))
                     on conflict (email_hash) do update set erased_at = now())
     select count(*)::int as n from gone`,
  )
  return row!.n > 0
}

/** Lets addresses erased before be imported again: the operator named them. */
export async function unerase(db: Db, addresses: string[]): Promise<void> {
  if (addresses.length === 0) return
  await db.client.query(
    `delete from waitlist_private.erasures where email_hash in (select waitlist_private.email_hash(a) from unnest(array[${addresses.map(lit).join(', ')}]) as a)`,
  )
}

/** The erasure marks, and the key that makes them: with both, another project matches them too. */
export async function erasures(db: Db): Promise<Erasures> {
  const [row] = await rows<Erasures>(
    db,
    `select (select encode(erasure_key, 'hex') from waitlist_private.secrets) as key,
            coalesce((select json_agg(json_build_object('email_hash', email_hash, 'erased_at', erased_at) order by erased_at, email_hash)
                        from waitlist_private.erasures), '[]') as marks`,
  )
  return row!
}

/**
 * Takes `backup`'s key and marks, in one statement: into a project with no
 * marks of its own, or one whose key they share (the same project again);
 * resolves to the marks added, or null where the project's own marks would be lost.
 */
export async function restoreErasures(db: Db, backup: Erasures): Promise<number | null> {
  const [row] = await rows<{ fits: boolean; added: number }>(
    db,
    `with fits as (select encode(erasure_key, 'hex') = ${lit(backup.key)} or not exists (select 1 from waitlist_private.erasures) as ok
                     from waitlist_private.secrets),
          keyed as (update waitlist_private.secrets set erasure_key = decode(${lit(backup.key)}, 'hex')
                     where (select ok from fits) returning 1),
          added as (insert into waitlist_private.erasures (email_hash, erased_at)
                    select email_hash, erased_at from json_to_recordset(${lit(JSON.stringify(backup.marks))}) as m(email_hash text, erased_at timestamptz)
                     where (select ok from fits) on conflict (email_hash) do nothing returning 1)
     select (select ok from fits) as fits, (select count(*) from added)::int as added`,
  )
  return row!.fits ? row!.added : null
}

export type ImportTally = { inserted: number; duplicates: number; erased: number; rejected: number }

/** Class 22 and 23 are a row's fault (a value, a rule of the table), not the database's. */
const isRowRefusal = (error: unknown) =>
  /^2[23]/.test(String((error as { code?: unknown }).code ?? ''))

/**
 * Adds rows in file order, one statement a batch: an address already on the
 * list (or earlier in the file), in any case, is skipped, as is one erased on
 * request. A row the table refuses fails its statement, so the batch is
 * halved until that row is alone and reported; the rest go in.
 */
export async function insertBatch(
  db: Db,
  batch: ImportRow[],
  tally: ImportTally,
  reject: (row: Rejected) => void,
): Promise<void> {
  const json = JSON.stringify(batch.map((row, n) => ({ ...row, n })))
  try {
    const [row] = await rows<{ added: number; erased: number }>(
      db,
      `with input as (select * from json_to_recordset(${lit(json)}) as r(email text, source text, created_at timestamptz, n int)),
            erased as (select i.n from input i join waitlist_private.erasures e on e.email_hash = waitlist_private.email_hash(i.email)),
            added as (insert into public.waitlist (email, source, created_at)
                      select i.email, i.source, coalesce(i.created_at, now()) from input i
                       where i.n not in (select n from erased) order by i.n
                      on conflict do nothing returning 1)
       select (select count(*) from added)::int as added, (select count(*) from erased)::int as erased`,
    )
    tally.inserted += row!.added
    tally.erased += row!.erased
    tally.duplicates += batch.length - row!.added - row!.erased
  } catch (error) {
    if (!isRowRefusal(error)) throw error
    if (batch.length === 1) {
      tally.rejected += 1
      return reject({
        line: batch[0]!.line,
        reason: `refused by the table: ${(error as Error).message}`,
      })
    }
    const half = Math.ceil(batch.length / 2)
    await insertBatch(db, batch.slice(0, half), tally, reject)
    await insertBatch(db, batch.slice(half), tally, reject)
  }
}

/**
 * Makes `secret` the one the site signs with (WAITLIST_SIGNING_SECRET); the
 * one it replaces stays accepted until retirePreviousSigningSecret, so servers
 * still signing with it are not refused. Setting the current one again changes nothing.
 */
export async function setSigningSecret(db: Db, secret: string): Promise<boolean> {
  const { rowCount } = await db.client.query(
    `update waitlist_private.secrets
        set previous_signing_secret = signing_secret, previous_signed_at = signed_at,
            signed_at = null, signing_secret = ${lit(secret)}
      where signing_secret is distinct from ${lit(secret)}`,
  )
  return Boolean(rowCount)
}

/** When a secret last signed a signup, as check and --retire-previous say it: "never", or a time and how long ago. */
const lastSigned = (column: string) =>
  `coalesce(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') || ', ' ||
     (extract(epoch from now() - ${column}) / 60)::int || ' min ago', 'never')`

/**
 * Stops accepting the secret the current one replaced, unless it signed a
 * signup in the last 10 minutes and `force` is not set: then resolves to
 * when it last did, having changed nothing.
 */
export async function retirePreviousSigningSecret(db: Db, force: boolean): Promise<string | null> {
  const [row] = await rows<{ retired: boolean; last: string }>(
    db,
    `with retired as (
       update waitlist_private.secrets set previous_signing_secret = null, previous_signed_at = null
        where ${force} or coalesce(previous_signed_at < now() - interval '10 minutes', true) returning 1)
     select exists (select from retired) as retired, ${lastSigned('previous_signed_at')} as last
       from waitlist_private.secrets`,
  )
  return row!.retired ? null : row!.last
}

export type SchemaState = {
  applied: string[] | null
  limits: boolean
  /** Signups a minute from everyone together: 0 closed, null no ceiling; undefined without the table. */
  ceiling?: number | null
  signed: boolean | null
  /** Whether the secret the current one replaced is still accepted. */
  previous: boolean
  /** When the current secret and the previous one last signed a signup. */
  signedAt?: string
  previousSignedAt?: string
  /** Signups of erased addresses held back. */
  heldBack: number
}

/** What the database records and holds, read from the CLI's history and the catalogs; it changes nothing. */
export async function schemaState(db: Db): Promise<SchemaState> {
  // A statement naming a table that is not there fails as a whole: first which are there.
  const [has] = await rows<Record<'history' | 'limits' | 'secrets' | 'trigger', boolean>>(
    db,
    `select to_regclass('supabase_migrations.schema_migrations') is not null as history,
            to_regclass('waitlist_private.signup_limits') is not null as limits,
            to_regclass('waitlist_private.secrets') is not null as secrets,
            exists (select 1 from pg_trigger where tgrelid = to_regclass('public.waitlist')
                     and tgname = 'limit_signups' and tgenabled in ('O', 'A')) as trigger`,
  )
  const applied = has!.history
    ? (
        await rows<{ version: string }>(
          db,
          'select version::text from supabase_migrations.schema_migrations order by version',
        )
      ).map((row) => row.version)
    : null
  const [limits] = has!.limits
    ? await rows<{ ceiling: number | null }>(
        db,
        'select signups_per_minute as ceiling from waitlist_private.signup_limits',
      )
    : []
  const [secrets] = has!.secrets
    ? await rows<{ signed: boolean; previous: boolean; signed_at: string; previous_at: string }>(
        db,
        `select signing_secret is not null as signed, previous_signing_secret is not null as previous,
                ${lastSigned('signed_at')} as signed_at, ${lastSigned('previous_signed_at')} as previous_at
           from waitlist_private.secrets`,
      )
    : []
  return {
    applied,
    limits: has!.trigger && limits !== undefined,
    ceiling: limits?.ceiling,
    signed: secrets?.signed ?? null,
    previous: secrets?.previous ?? false,
    signedAt: secrets?.signed_at,
    previousSignedAt: secrets?.previous_at,
    heldBack: has!.limits ? await heldBack(db) : 0,
  }
}
