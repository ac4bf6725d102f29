// What each command asks of either database: one statement each, its values written in as
// literals, so on the embedded database no signup falls between its parts.
import { WAITLIST_SOURCES } from '@/lib/waitlist/form-contract'
import { lit } from '@/lib/waitlist/embedded-store'
import type { Database } from './database'
import type { Erasures, ImportRow, Rejected, Signup } from './list-files'

type Connected = Pick<Database, 'client'>

export async function firstRow<T>(db: Connected, sql: string): Promise<T> {
  return (await db.client.query(sql)).rows[0] as T
}

export async function count(db: Connected): Promise<number> {
  return (await firstRow<{ n: number }>(db, 'select count(*)::int as n from public.waitlist')).n
}

/** The list in signup order, read a page at a time so that no statement holds an embedded database long. */
export async function signups(db: Connected): Promise<Signup[]> {
  const rows: Signup[] = []
  for (let after = "('-infinity'::timestamptz, 0)"; ;) {
    const { rows: page } = await db.client.query<Signup & { id: number }>(
      `select id::int, email, source, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at
         from public.waitlist where (created_at, id) > ${after} order by created_at, id limit 1000`,
    )
    if (page.length === 0) return rows
    rows.push(...page.map(({ email, source, created_at }) => ({ email, source, created_at })))
    const last = page.at(-1)!
    after = `(${lit(last.created_at)}::timestamptz, ${last.id})`
  }
}

export type Stats = {
  total: number
  held_back: number
  by_source: Record<string, number>
  first_signup_at: string | null
  latest_signup_at: string | null
  days: { day: string; signups: number }[]
}

export async function stats(db: Connected, days: number): Promise<Stats> {
  const iso = (column: string) =>
    `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`
  const { stats } = await firstRow<{ stats: Stats }>(
    db,
    `with per_day as (
       select (created_at at time zone 'UTC')::date as day, source, count(*)::int as n,
              min(created_at) as first_at, max(created_at) as latest_at
         from public.waitlist group by 1, 2)
     select json_build_object(
       'total', coalesce((select sum(n) from per_day), 0)::int,
       'held_back', (select count(held_back_at) from waitlist_private.erasures)::int,
       'by_source', coalesce((select json_object_agg(source, n) from (select source, sum(n)::int as n from per_day group by source) s), '{}'),
       'first_signup_at', (select ${iso('min(first_at)')} from per_day),
       'latest_signup_at', (select ${iso('max(latest_at)')} from per_day),
       'days', (select json_agg(json_build_object('day', d.day::date::text, 'signups', coalesce((select sum(n) from per_day p where p.day = d.day::date), 0)::int) order by d.day)
                  from generate_series((now() at time zone 'UTC')::date - ${days - 1}, (now() at time zone 'UTC')::date, interval '1 day') as d(day))
     ) as stats`,
  )
  const known = Object.fromEntries(WAITLIST_SOURCES.map((source) => [source, 0]))
  return { ...stats, by_source: { ...known, ...stats.by_source } }
}

/** Erases the address and keeps its keyed hash, so no import adds it back; true when it was listed. */
export async function erase(db: Connected, address: string): Promise<boolean> {
  const sql = `select waitlist_private.erase(${lit(address)}) as listed`
  return (await firstRow<{ listed: boolean }>(db, sql)).listed
}

export async function unerase(db: Connected, addresses: string[]): Promise<void> {
  if (addresses.length === 0) return
  await db.client.query(
    `delete from waitlist_private.erasures where email_hash in (select waitlist_private.email_hash(a) from unnest(array[${addresses.map(lit).join(', ')}]) as a)`,
  )
}

export async function erasures(db: Connected): Promise<Erasures> {
  return firstRow<Erasures>(
    db,
    `select (select encode(erasure_key, 'hex') from waitlist_private.secrets) as key,
            coalesce((select json_agg(json_build_object('email_hash', email_hash, 'erased_at', erased_at, 'held_back_at', held_back_at) order by erased_at, email_hash)
                        from waitlist_private.erasures), '[]') as marks`,
  )
}

/** The marks added, or null where the project has marks of its own under another key. */
export async function restoreErasures(db: Connected, backup: Erasures): Promise<number | null> {
  const { fits, added } = await firstRow<{ fits: boolean; added: number }>(
    db,
    `with fits as (select encode(erasure_key, 'hex') = ${lit(backup.key)} or not exists (select 1 from waitlist_private.erasures) as ok
                     from waitlist_private.secrets),
          keyed as (update waitlist_private.secrets set erasure_key = decode(${lit(backup.key)}, 'hex')
                     where (select ok from fits) returning 1),
          added as (insert into waitlist_private.erasures (email_hash, erased_at, held_back_at)
                    select email_hash, erased_at, held_back_at
                      from json_to_recordset(${lit(JSON.stringify(backup.marks))}) as m(email_hash text, erased_at timestamptz, held_back_at timestamptz)
                     where (select ok from fits) on conflict (email_hash) do nothing returning 1)
     select (select ok from fits) as fits, (select count(*) from added)::int as added`,
  )
  return fits ? added : null
}

export type ImportTally = { inserted: number; duplicates: number; erased: number; rejected: number }

/** Adds rows in file order, skipping duplicates and erased addresses; a batch the table refuses is halved until the refused row is alone. */
export async function insertBatch(
  db: Connected,
  batch: ImportRow[],
  tally: ImportTally,
  reject: (row: Rejected) => void,
): Promise<void> {
  const json = JSON.stringify(batch.map((row, n) => ({ ...row, n })))
  try {
    const { added, erased } = await firstRow<{ added: number; erased: number }>(
      db,
      `with input as (select * from json_to_recordset(${lit(json)}) as r(email text, source text, created_at timestamptz, n int)),
            erased as (select i.n from input i join waitlist_private.erasures e on e.email_hash = waitlist_private.email_hash(i.email)),
            added as (insert into public.waitlist (email, source, created_at)
                      select i.email, i.source, coalesce(i.created_at, now()) from input i
                       where i.n not in (select n from erased) order by i.n
                      on conflict do nothing returning 1)
       select (select count(*) from added)::int as added, (select count(*) from erased)::int as erased`,
    )
    tally.inserted += added
    tally.erased += erased
    tally.duplicates += batch.length - added - erased
  } catch (error) {
    // Classes 22 and 23 are a row's fault, not the database's.
    if (!/^2[23]/.test(String((error as { code?: unknown }).code))) throw error
    if (batch.length === 1)
      return reject({
        line: batch[0]!.line,
        reason: `refused by the table: ${(error as Error).message}`,
      })
    const half = Math.ceil(batch.length / 2)
    await insertBatch(db, batch.slice(0, half), tally, reject)
    await insertBatch(db, batch.slice(half), tally, reject)
  }
}

/** The secret replaced stays accepted until retirePreviousSigningSecret; false when `secret` was already set. */
export async function setSigningSecret(db: Connected, secret: string): Promise<boolean> {
  const { rowCount } = await db.client.query(
    `update waitlist_private.secrets
        set previous_signing_secret = signing_secret, previous_signed_at = signed_at,
            signed_at = null, signing_secret = ${lit(secret)}, replaced_at = now()
      where signing_secret is distinct from ${lit(secret)}`,
  )
  return Boolean(rowCount)
}

export const lastSigned = (column: string) =>
  `coalesce(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') || ', ' ||
     (extract(epoch from now() - ${column}) / 60)::int || ' min ago', 'never')`

/** Why the previous secret stays (a site not yet redeployed may still sign with it), or null. */
export async function retirePreviousSigningSecret(db: Connected, force: boolean) {
  const { retired, last, replaced } = await firstRow<{
    retired: boolean
    last: string
    replaced: string
  }>(
    db,
    `with retired as (
       update waitlist_private.secrets set previous_signing_secret = null, previous_signed_at = null
        where ${force} or (coalesce(previous_signed_at < now() - interval '10 minutes', true)
                           and coalesce(replaced_at < now() - interval '10 minutes', true)) returning 1)
     select exists (select from retired) as retired, ${lastSigned('previous_signed_at')} as last,
            ${lastSigned('replaced_at')} as replaced
       from waitlist_private.secrets`,
  )
  if (retired) return null
  return `was replaced ${replaced}, and last signed a signup ${last}`
}
