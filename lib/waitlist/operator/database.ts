// The connection to the list's database, and one sentence for each way it can fail.
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { openFolder } from '@/lib/waitlist/data-folder'
import { untilAborted } from '@/lib/until-aborted'
import { Failure, UsageError } from './io'
import type { SiteStore, Stores, Target } from './stores'

function connectionFailure(target: Target, error: Error): string {
  const code = (error as { code?: unknown }).code
  const cause = error.message.replace(/\s+/g, ' ').trim()
  if (/does not support SSL/i.test(cause))
    return `${target.name} does not take encrypted connections, and SUPABASE_DB_URL asks for one (sslmode=require): Supabase's databases all do, so check the host; for a PostgreSQL of your own without TLS, end the string with ?sslmode=disable.`
  if (code === '28000' && /no encryption|SSL off|SSL.*required|requires? (SSL|TLS)/i.test(cause))
    return `${target.name} takes only encrypted connections: end SUPABASE_DB_URL with ?sslmode=require&uselibpqcompat=true (${cause}).`
  if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code))
    return `Node does not trust the certificate of ${target.name} (${code}): end SUPABASE_DB_URL with ?sslmode=require&uselibpqcompat=true, which encrypts as psql's sslmode=require does.`
  if (target.kind === 'supabase' && code === '3D000')
    return `${target.url.hostname} has no database ${decodeURIComponent(target.url.pathname.slice(1))}: on Supabase it is postgres, the end of SUPABASE_DB_URL (…:5432/postgres).`
  if (target.kind === 'supabase' && code === '28P01')
    return `${target.name} refused the password of user ${decodeURIComponent(target.url.username)}: put the database password in SUPABASE_DB_URL, its at signs, colons and slashes percent-encoded (%40, %3A, %2F); Supabase resets it under Project Settings → Database.`
  const unreached = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)$/
  if (target.kind === 'supabase' && (unreached.test(String(code)) || /timeout/i.test(cause))) {
    const { hostname, port } = target.url
    return `nothing answers at ${hostname}:${port || 5432} (${typeof code === 'string' ? code : cause}): check the host and port in SUPABASE_DB_URL; for Supabase take the session pooler's string (the dashboard's Connect button: host aws-0-<region>.pooler.supabase.com, port 5432), as the direct host is IPv6 only.`
  }
  if (target.kind === 'embedded' && /timeout/i.test(cause))
    return `the embedded database in ${target.dir} did not answer within ${target.timeoutMs} ms (WAITLIST_STORE_TIMEOUT_MS): the process that holds the folder is stuck (stopped with Ctrl-Z?): end it, and run this again.`
  return `could not connect to ${target.name}: ${cause || code}.`
}

/** sslmode spelt as pg already reads it (verify-full), so that it warns of no change to come. */
function clientUrl(url: URL): string {
  const client = new URL(url.href)
  const mode = client.searchParams.get('sslmode') ?? ''
  if (
    client.searchParams.get('uselibpqcompat') !== 'true' &&
    /^(prefer|require|verify-ca)$/.test(mode)
  )
    client.searchParams.set('sslmode', 'verify-full')
  return client.href
}

export type Database = Awaited<ReturnType<typeof connect>>

const shellWord = (word: string) =>
  /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`

const holdsList = (dir: string) =>
  stat(path.join(dir, 'PG_VERSION')).then(
    () => true,
    () => false,
  )

/** Only the site makes a list: a folder that holds none is a mistyped WAITLIST_DATA_DIR, never a new list. */
async function checkFolder(target: Extract<Target, { kind: 'embedded' }>, site: SiteStore) {
  const deadline = AbortSignal.timeout(target.timeoutMs)
  const held = await untilAborted(holdsList(target.dir), deadline).catch(() => {
    throw new Failure(
      `the folder ${target.dir} did not answer within ${target.timeoutMs} ms (WAITLIST_STORE_TIMEOUT_MS): its disk is stuck.`,
    )
  })
  if (held) return
  const parent = path.dirname(target.dir)
  const names = await untilAborted(readdir(parent), deadline).catch(() => [])
  const beside = []
  for (const name of names)
    if (await holdsList(path.join(parent, name))) beside.push(path.join(parent, name))
  const elsewhere = [
    beside.length ? ` Lists beside it: ${beside.join(', ')}.` : '',
    'problem' in site || site.kind === 'embedded' ? '' : ` The site here writes to ${site.name}.`,
  ]
  throw new UsageError(
    `${target.dir} holds no list, and the commands make none (the site makes it as it starts): check WAITLIST_DATA_DIR.${elsewhere.join('')}`,
  )
}

/** Supabase by its connection string; the embedded database through the server that has it open, or here. */
export async function connect({ target, site }: Pick<Stores, 'target' | 'site'>) {
  if (target.kind === 'embedded' && target.problem) throw new Failure(target.problem)
  if (target.kind === 'embedded') await checkFolder(target, site)
  // Bounded as the site bounds it: a folder whose holder never answers is said, not waited on.
  const folder =
    target.kind === 'embedded'
      ? await openFolder(target.dir, target.timeoutMs).catch((error: Error) => {
          const message = error.message.replace(/within \d+ ms/, '$& (WAITLIST_STORE_TIMEOUT_MS)')
          throw new Failure(message, { cause: error })
        })
      : undefined
  const client = new pg.Client(
    target.kind === 'embedded'
      ? { ...folder!.connection, connectionTimeoutMillis: target.timeoutMs }
      : { connectionString: clientUrl(target.url), connectionTimeoutMillis: 15_000 },
  )
  client.on('error', () => {})
  const close = async () => {
    await client.end().catch(() => {})
    await folder?.close()
  }
  try {
    await client.connect()
  } catch (error) {
    await folder?.close()
    throw new Failure(connectionFailure(target, error as Error), { cause: error })
  }
  try {
    // The commands act as the tables' owner, whom the rules for every other role do not meet.
    const { rows } = await client.query<{ user: string; owner: string | null }>(
      `select current_user as user, (select pg_get_userbyid(relowner) from pg_class
        where oid = to_regclass('public.waitlist')) as owner`,
    )
    const { user, owner } = rows[0]!
    if (owner === null)
      throw new Failure(
        `${target.name} has no table public.waitlist: SUPABASE_DB_URL names another database than the project's (on Supabase, database postgres of the project the schema was pushed to), or \`npx supabase db push\` has not been run on it.`,
      )
    if (user !== owner)
      throw new UsageError(
        `SUPABASE_DB_URL connects as ${user}, who does not own the waitlist's tables (${owner} does, as \`supabase db push\` made them): the commands act as their owner, so connect as ${owner} (on Supabase's pooler, user ${owner}.<ref>).`,
      )
  } catch (error) {
    await close()
    throw error
  }
  const served = folder && !folder.pglite && folder.connection
  return {
    client,
    kind: target.kind,
    /** The store, as every result names it. */
    name: target.name,
    /** The store and the way to it. */
    where: served ? `${target.name}, through the server that has it open` : target.name,
    /** The psql command that reaches an embedded database another process serves. */
    psql: served
      ? `psql -h ${shellWord(served.host)} -p ${served.port} -U ${served.user} -d ${served.database}`
      : undefined,
    close,
  }
}
