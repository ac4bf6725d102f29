// Which store a command acts on (a Supabase database, or the embedded one in a folder), beside
// the one the site writes to, and whether it can tell that they are the same.
import path from 'node:path'
import {
  dataFolderProblem,
  DEFAULT_DATA_DIR,
  keyClaims,
  readServerConfig,
  SUPABASE_URL_VARS,
  type Env,
  type StoreConfig,
} from '@/lib/env'
import { Failure, UsageError } from './io'

export const STORE_KINDS = ['supabase', 'embedded'] as const
export type StoreKind = (typeof STORE_KINDS)[number]

export type Target =
  | { kind: 'supabase'; url: URL; name: string; project?: string }
  | { kind: 'embedded'; dir: string; name: string; problem?: string; timeoutMs: number }

/** Where the site writes its signups; `problem` when it would take none. */
export type SiteStore = { kind: StoreKind; name: string; project?: string } | { problem: string }

export type Stores = {
  target: Target
  site: SiteStore
  /** Whether `target` is where the site here writes: the same folder, one project by both refs, or by --project. */
  sites: boolean
  /** Where the site writes when that is known not to be `target`, and how to settle it. */
  conflict?: { site: string; settle: string }
  /** Why `target` cannot be told to be the site's list, when it cannot. */
  unknown?: string
}

/** A project's ref, from `[db.]<ref>.supabase.co` or a pooler's user `<role>.<ref>`. */
function projectRef(host: string, user = ''): string | undefined {
  return (
    /^(?:db\.)?([a-z0-9]+)\.supabase\.(?:co|in)$/i.exec(host)?.[1] ??
    /^[\w-]+\.([a-z0-9]+)$/i.exec(user)?.[1]
  )?.toLowerCase()
}

const embedded = (env: Env, timeoutMs: number): Target => {
  const named = env.WAITLIST_DATA_DIR?.trim()
  const dir = path.resolve(named || DEFAULT_DATA_DIR)
  const problem = dataFolderProblem(dir, Boolean(named))
  return { kind: 'embedded', dir, name: `the embedded database in ${dir}`, problem, timeoutMs }
}

function supabase(raw: string): Target {
  if (!/^[a-z][\w+.-]*:\/\//i.test(raw))
    throw new Failure(
      "SUPABASE_DB_URL does not start with postgresql://: copy the whole URI under the dashboard's Connect button (the session pooler's), its scheme included.",
    )
  const url = URL.parse(raw)
  if (!url || !/^postgres(ql)?:$/.test(url.protocol))
    throw new Failure(
      `SUPABASE_DB_URL is ${url ? `${url.protocol}//${url.host}, not` : 'not'} a postgresql:// connection string: take the URI under the dashboard's Connect button (the session pooler's), not the project's URL.`,
    )
  const user = decodeURIComponent(url.username)
  const project = projectRef(url.hostname, user)
  // Where no project names it, the host, port and database do: two databases on one host differ.
  const database = decodeURIComponent(url.pathname.slice(1)) || user
  const name = project
    ? `Supabase project ${project}`
    : `the Supabase database ${database} at ${url.hostname}:${url.port || 5432}`
  return { kind: 'supabase', url, name, project }
}

function siteStore(store: StoreConfig): SiteStore {
  if (store.kind === 'embedded') {
    const dir = path.resolve(store.dataDir)
    return { kind: 'embedded', name: `the embedded database in ${dir}` }
  }
  const { host, hostname } = new URL(store.url)
  // A legacy public key carries the ref in its claims; a publishable key names none.
  const { ref } = keyClaims(store.key)
  const project = projectRef(hostname) ?? (typeof ref === 'string' ? ref.toLowerCase() : undefined)
  const key = `(${store.keyVar}${store.signingSecret ? ', signed' : ''})`
  const name = projectRef(hostname)
    ? `Supabase project ${project} ${key}`
    : `Supabase at ${host} ${key}`
  return { kind: 'supabase', name, project }
}

/** Why SUPABASE_DB_URL cannot be told to be the site's project: the side that names none. */
function unknownSide(site: SiteStore): string {
  if ('problem' in site || site.kind === 'embedded')
    return 'no Supabase URL is set for the site here'
  if (!site.project) return "the site's URL names no project (a custom domain?), nor does its key"
  return 'SUPABASE_DB_URL names no project (its host is not <ref>.supabase.co, nor its user <role>.<ref>)'
}

/** The store `--list` names, else SUPABASE_DB_URL's, else the embedded one; and the site's. */
export function chooseStores(env: Env, chosen?: StoreKind, named?: string): Stores {
  const url = env.SUPABASE_DB_URL?.trim()
  const siteUrl = SUPABASE_URL_VARS.find((name) => env[name]?.trim())
  if (named && chosen === 'embedded')
    throw new UsageError(`--project names a Supabase project: it goes with --list supabase.`)
  if ((chosen === 'supabase' || named) && !url)
    throw new UsageError(
      `${named ? '--project' : '--list supabase'} needs SUPABASE_DB_URL, the database's connection string (docs/supabase.md#connecting-the-commands).`,
    )
  if (!chosen && !url && siteUrl)
    throw new UsageError(
      `${siteUrl} is set, so the list is on Supabase: set SUPABASE_DB_URL to the project's connection string ` +
        `(the URI under the dashboard's Connect button, with the database password), as psql takes it; --list embedded acts on the embedded database instead.`,
    )
  const config = readServerConfig(env)
  const timeoutMs = config.ok ? config.config.storeTimeoutMs : 8000
  const target = chosen === 'embedded' || !url ? embedded(env, timeoutMs) : supabase(url)
  const site = config.ok ? siteStore(config.config.store) : { problem: config.problem }
  if (target.kind === 'embedded') {
    const sites = !('problem' in site) && site.kind === 'embedded' && site.name === target.name
    return { target, site, sites }
  }
  const sitesProject = 'problem' in site ? undefined : site.project
  // --project names the project to act on: SUPABASE_DB_URL's, where it names one.
  if (named) {
    const ref = named.toLowerCase()
    if (target.project && target.project !== ref)
      throw new UsageError(
        `--project ${named}, but SUPABASE_DB_URL names ${target.name}: set it to project ${named}'s connection string (its pooler user is postgres.${named}).`,
      )
    return { target, site, sites: !sitesProject || sitesProject === ref }
  }
  if (!('problem' in site) && site.kind === 'embedded' && !chosen) {
    const conflict = {
      site: `the site here writes to ${site.name} (no Supabase variables are set for it)`,
      settle: 'Say which: --list embedded, or --project <ref> for the Supabase database.',
    }
    return { target, site, sites: false, conflict }
  }
  if (sitesProject && target.project) {
    if (sitesProject === target.project) return { target, site, sites: true }
    const conflict = {
      site: `the site here writes to ${'problem' in site ? '' : site.name}`,
      settle: `Add --project ${target.project} to act on it all the same, or set SUPABASE_DB_URL to project ${sitesProject}'s connection string.`,
    }
    return { target, site, sites: false, conflict }
  }
  return { target, site, sites: false, unknown: unknownSide(site) }
}
