// Which list a command acts on, beside the one the site writes to, and the connection to it.
import path from 'node:path'
import pg from 'pg'
import {
  dataFolderProblem,
  DEFAULT_DATA_DIR,
  readServerConfig,
  SUPABASE_URL_VARS,
  type Env,
  type StoreConfig,
} from '@/lib/env'
import { openFolder } from '@/lib/waitlist/data-folder'

/** A mistake in the command or its setup: said in one line, exit status 2. */
export class UsageError extends Error {}

/** The database could not be used: said in one line, exit status 1, as its own refusals are. */
class Unusable extends Error {
  readonly code = 'WAITLIST_UNUSABLE'
}

export const LISTS = ['supabase', 'embedded'] as const
export type ListKind = (typeof LISTS)[number]

type Target =
  | { kind: 'supabase'; url: URL; name: string; project?: string }
  | { kind: 'embedded'; dir: string; name: string; problem?: string; timeoutMs: number }

/** Where the site writes its signups; `problem` when it would take none. */
export type SiteList = { kind: ListKind; name: string; project?: string } | { problem: string }

export type Lists = {
  target: Target
  site: SiteList
  /** Where the site writes when that is not `target` and nobody said which, and how to settle it. */
  conflict?: { site: string; settle: string }
}

/** A project's ref, from `[db.]<ref>.supabase.co` or a pooler's user `postgres.<ref>`. */
function projectRef(host: string, user = ''): string | undefined {
  return (
    /^(?:db\.)?([a-z0-9]+)\.supabase\.(?:co|in)$/i.exec(host)?.[1] ??
    /^postgres\.([a-z0-9]+)$/i.exec(user)?.[1]
  )?.toLowerCase()
}

const embedded = (env: Env, timeoutMs: number): Target => {
  const named = env.WAITLIST_DATA_DIR?.trim()
  const dir = path.resolve(named || DEFAULT_DATA_DIR)
  const problem = dataFolderProblem(dir, Boolean(named))
  return { kind: 'embedded', dir, name: `the embedded database in ${dir}`, problem, timeoutMs }
}

function supabase(raw: string): Target {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Unusable(
      "SUPABASE_DB_URL is not a connection string: set it to the postgresql:// URI under the dashboard's Connect button (the session pooler's), with the database password in it.",
    )
  }
  if (!/^postgres(ql)?:$/.test(url.protocol)) {
    throw new Unusable(
      `SUPABASE_DB_URL is ${url.protocol}//${url.host}, not a postgresql:// connection string: take the URI under the dashboard's Connect button (the session pooler's), not the project's URL.`,
    )
  }
  const user = decodeURIComponent(url.username)
  const project = projectRef(url.hostname, user)
  // Where no project names it, the host, port and database do: two databases on one host differ.
  const database = decodeURIComponent(url.pathname.slice(1)) || user
  const name = project
    ? `Supabase project ${project}`
    : `the Supabase database ${database} at ${url.hostname}:${url.port || 5432}`
  return { kind: 'supabase', url, name, project }
}

function siteList(store: StoreConfig): SiteList {
  if (store.kind === 'embedded') {
    const dir = path.resolve(store.dataDir)
    return { kind: 'embedded', name: `the embedded database in ${dir}` }
  }
  const { host, hostname } = new URL(store.url)
  const project = projectRef(hostname)
  const key = `(${store.keyVar}${store.signingSecret ? ', signed' : ''})`
  const name = project ? `Supabase project ${project} ${key}` : `Supabase at ${host} ${key}`
  return { kind: 'supabase', name, project }
}

/** The store `--list` names, else SUPABASE_DB_URL's, else the embedded one; and the site's. */
export function chooseLists(env: Env, chosen?: ListKind, named?: string): Lists {
  const url = env.SUPABASE_DB_URL?.trim()
  const siteUrl = SUPABASE_URL_VARS.find((name) => env[name]?.trim())
  if (named && chosen === 'embedded')
    throw new UsageError(`--project names a Supabase project: it goes with --list supabase.`)
  if ((chosen === 'supabase' || named) && !url) {
    throw new UsageError(
      `${named ? '--project' : '--list supabase'} needs SUPABASE_DB_URL, the database's connection string (docs/supabase.md#connecting-the-commands).`,
    )
  }
  if (!chosen && !url && siteUrl) {
    throw new UsageError(
      `${siteUrl} is set, so the list is on Supabase: set SUPABASE_DB_URL to the project's connection string ` +
        `(the URI under the dashboard's Connect button, with the database password), as psql takes it; --list embedded acts on the embedded database instead.`,
    )
  }
  const config = readServerConfig(env)
  const timeoutMs = config.ok ? config.config.storeTimeoutMs : 8000
  const target = chosen === 'embedded' || !url ? embedded(env, timeoutMs) : supabase(url)
  const project = target.kind === 'supabase' ? target.project : undefined
  if (named && project !== named.toLowerCase()) {
    throw new UsageError(
      `--project ${named}, but SUPABASE_DB_URL names ${target.name}: set it to project ${named}'s connection string (its pooler user is postgres.${named}).`,
    )
  }
  const site = config.ok ? siteList(config.config.store) : { problem: config.problem }
  if ('problem' in site || named) return { target, site }
  if (!chosen && site.kind === 'embedded' && target.kind === 'supabase') {
    const conflict = {
      site: `the site here writes to ${site.name} (no Supabase variables are set for it)`,
      settle: 'Say which with --list supabase or --list embedded.',
    }
    return { target, site, conflict }
  }
  // Two Supabase projects, where both names say which: --list chooses the store, never the project.
  if (site.project && project && site.project !== project) {
    const conflict = {
      site: `the site here writes to ${site.name}`,
      settle: `Add --project ${project} to act on it all the same, or set SUPABASE_DB_URL to project ${site.project}'s connection string.`,
    }
    return { target, site, conflict }
  }
  return { target, site }
}

function connectionFailure(target: Target, error: Error): string {
  const code = (error as { code?: unknown }).code
  const cause = error.message.replace(/\s+/g, ' ').trim()
  if (/does not support SSL/i.test(cause)) {
    return `${target.name} does not take encrypted connections, and SUPABASE_DB_URL asks for one (sslmode=require): Supabase's databases all do, so check the host; for a PostgreSQL of your own without TLS, end the string with ?sslmode=disable.`
  }
  if (code === '28000' && /no encryption|SSL off|SSL.*required|requires? (SSL|TLS)/i.test(cause)) {
    return `${target.name} takes only encrypted connections: end SUPABASE_DB_URL with ?sslmode=require&uselibpqcompat=true (${cause}).`
  }
  if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code)) {
    return `Node does not trust the certificate of ${target.name} (${code}): end SUPABASE_DB_URL with ?sslmode=require&uselibpqcompat=true, which encrypts as psql's sslmode=require does.`
  }
  if (target.kind === 'supabase' && code === '28P01') {
    return `${target.name} refused the password of user ${decodeURIComponent(target.url.username)}: put the database password in SUPABASE_DB_URL, its at signs, colons and slashes percent-encoded (%40, %3A, %2F); Supabase resets it under Project Settings → Database.`
  }
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

async function opened(client: pg.Client, target: Target): Promise<void> {
  try {
    await client.connect()
  } catch (error) {
    throw new Unusable(connectionFailure(target, error as Error), { cause: error })
  }
}

export type Database = {
  client: pg.Client
  kind: ListKind
  list: string
  /** The database and the way to it. */
  where: string
  /** The psql command that reaches an embedded database another process serves. */
  psql?: string
  close(): Promise<void>
}

const shellWord = (word: string) =>
  /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`

/** The embedded database through the server that has its folder open, or opened here when none does. */
export async function connect({ target }: Pick<Lists, 'target'>): Promise<Database> {
  if (target.kind === 'supabase') {
    const client = new pg.Client({
      connectionString: clientUrl(target.url),
      connectionTimeoutMillis: 15_000,
    })
    client.on('error', () => {})
    await opened(client, target)
    try {
      const { rows } = await client.query(
        "select to_regclass('public.waitlist') is not null as ours",
      )
      if (!rows[0].ours)
        throw new Unusable(
          `${target.name} has no table public.waitlist: SUPABASE_DB_URL names another database than the project's (on Supabase, database postgres of the project the schema was pushed to), or \`npx supabase db push\` has not been run on it.`,
        )
    } catch (error) {
      await client.end().catch(() => {})
      throw error
    }
    return {
      client,
      kind: 'supabase',
      list: target.name,
      where: target.name,
      close: () => client.end(),
    }
  }
  if (target.problem) throw new Unusable(target.problem)
  // Bounded as the site bounds it: a folder whose holder never answers is said, not waited on.
  const folder = await openFolder(target.dir, target.timeoutMs).catch((error: Error) => {
    throw new Unusable(error.message.replace(/within \d+ ms/, '$& (WAITLIST_STORE_TIMEOUT_MS)'), {
      cause: error,
    })
  })
  const client = new pg.Client({ ...folder.connection, connectionTimeoutMillis: target.timeoutMs })
  client.on('error', () => {})
  try {
    await opened(client, target)
  } catch (error) {
    await folder.close()
    throw error
  }
  const { host, port, user, database } = folder.connection
  return {
    client,
    kind: 'embedded',
    list: target.name,
    where: folder.pglite ? target.name : `${target.name}, through the server that has it open`,
    psql: folder.pglite
      ? undefined
      : `psql -h ${shellWord(host)} -p ${port} -U ${user} -d ${database}`,
    async close() {
      await client.end().catch(() => {})
      await folder.close()
    },
  }
}
