// Which list a command acts on, beside the one the site writes to, and the errors the commands
// say in one line.
import path from 'node:path'
import {
  dataFolderProblem,
  DEFAULT_DATA_DIR,
  readServerConfig,
  SUPABASE_URL_VARS,
  type Env,
  type StoreConfig,
} from '@/lib/env'

/** A mistake in the command or its setup: said in one line, exit status 2. */
export class UsageError extends Error {}

/** The database could not be used, a file is no list, or check found something wrong: said in one line, exit status 1. */
export class Failure extends Error {}

export const LISTS = ['supabase', 'embedded'] as const
export type ListKind = (typeof LISTS)[number]

export type Target =
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
  const url = URL.parse(raw)
  if (!url || !/^postgres(ql)?:$/.test(url.protocol)) {
    throw new Failure(
      `SUPABASE_DB_URL is ${url ? `${url.protocol}//${url.host}, not` : 'not'} a postgresql:// connection string: take the URI under the dashboard's Connect button (the session pooler's), not the project's URL.`,
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
  // Unless said: the site on the embedded database, or on another Supabase project (--list chooses the store, never the project).
  const conflict =
    !chosen && site.kind === 'embedded' && target.kind === 'supabase'
      ? {
          site: `the site here writes to ${site.name} (no Supabase variables are set for it)`,
          settle: 'Say which with --list supabase or --list embedded.',
        }
      : site.project && project && site.project !== project
        ? {
            site: `the site here writes to ${site.name}`,
            settle: `Add --project ${project} to act on it all the same, or set SUPABASE_DB_URL to project ${site.project}'s connection string.`,
          }
        : undefined
  return { target, site, conflict }
}
