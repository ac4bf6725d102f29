import { accessSync, constants, statSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { log } from './log'
import { processWide } from './process-wide'

// The server's settings, read by computed name: Next would inline `process.env.NEXT_PUBLIC_*` at build.
export const SUPABASE_URL_VARS = ['NEXT_PUBLIC_SUPABASE_URL', 'SUPABASE_URL'] as const
export const SUPABASE_KEY_VARS = [
  'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY',
  'NEXT_PUBLIC_SUPABASE_ANON_KEY',
  'SUPABASE_ANON_KEY',
] as const
export const SIGNING_SECRET_VAR = 'WAITLIST_SIGNING_SECRET'
export const DEFAULT_DATA_DIR = '.data/waitlist'

export type StoreConfig =
  | { kind: 'supabase'; url: string; key: string; keyVar: string; signingSecret?: string }
  | { kind: 'embedded'; dataDir: string }

export type Env = Record<string, string | undefined>

export type ServerConfig = ReturnType<typeof readConfig>
export type ConfigResult = { ok: true; config: ServerConfig } | { ok: false; problem: string }

class ConfigProblem extends Error {}

function firstSet(env: Env, names: readonly string[]) {
  for (const name of names) {
    const value = env[name]?.trim()
    if (value) return { name, value }
  }
  return undefined
}

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const parsed = z.coerce.number().int().min(min).max(max).safeParse(raw)
  if (!parsed.success)
    throw new ConfigProblem(`${name} must be a whole number from ${min} to ${max}, not "${raw}".`)
  return parsed.data
}

/** A legacy key's claims, its role and its project's ref; an sb_ key is no JWT and has none. */
export function keyClaims(key: string): { role?: unknown; ref?: unknown } {
  try {
    return Object(JSON.parse(Buffer.from(key.split('.')[1] ?? '', 'base64url').toString('utf8')))
  } catch {
    return {}
  }
}

/** A secret key in the public slot bypasses row-level security, and opens every table to whoever holds it: refused. */
function checkPublicKey(name: string, key: string): void {
  const role = key.startsWith('sb_secret_') ? 'service_role' : keyClaims(key).role
  if (role !== undefined && role !== 'anon')
    throw new ConfigProblem(
      `${name} holds a secret key (role ${String(role)}), which bypasses row-level security: ` +
        `set the publishable or anon key there, and keep the secret key off the site.`,
    )
}

function readStore(env: Env, platform: NodeJS.Platform): StoreConfig {
  const url = firstSet(env, SUPABASE_URL_VARS)
  const key = firstSet(env, SUPABASE_KEY_VARS)
  if (url && !z.url({ protocol: /^https?$/ }).safeParse(url.value).success)
    throw new ConfigProblem(`${url.name} is not an http(s) URL: "${url.value}".`)
  if (url && !key)
    throw new ConfigProblem(
      `${url.name} is set but no Supabase key is: set ${SUPABASE_KEY_VARS.join(' or ')}.`,
    )
  if (key && !url)
    throw new ConfigProblem(
      `${key.name} is set but no Supabase URL is: set ${SUPABASE_URL_VARS.join(' or ')}.`,
    )
  if (url && key) {
    checkPublicKey(key.name, key.value)
    const signingSecret = env[SIGNING_SECRET_VAR]?.trim() || undefined
    if (signingSecret && signingSecret.length < 32)
      throw new ConfigProblem(
        `${SIGNING_SECRET_VAR} must be at least 32 characters (npm run waitlist -- signing-secret makes one).`,
      )
    return { kind: 'supabase', url: url.value, key: key.value, keyVar: key.name, signingSecret }
  }
  const supabase = `set ${SUPABASE_URL_VARS[0]} and ${SUPABASE_KEY_VARS[0]} for Supabase`
  // A Vercel function's disk does not outlive the request: an embedded database would lose every signup.
  if (env.VERCEL)
    throw new ConfigProblem(`Supabase is not configured for this Vercel environment: ${supabase}.`)
  const dataDir = env.WAITLIST_DATA_DIR?.trim()
  // A default folder on a production host is one the next deploy may wipe, and nobody would look there.
  if (!dataDir && env.NODE_ENV === 'production')
    throw new ConfigProblem(
      `this production server has nowhere to keep the list: ${supabase}, or WAITLIST_DATA_DIR ` +
        `to the folder the embedded database keeps it in.`,
    )
  // Node takes a socket path only as a named pipe on Windows, where the folder's sockets cannot be made.
  if (platform === 'win32')
    throw new ConfigProblem(
      `the embedded database needs Unix sockets, which native Windows lacks: run the site in WSL, or ${supabase}.`,
    )
  return { kind: 'embedded', dataDir: dataDir || DEFAULT_DATA_DIR }
}

function readConfig(env: Env, platform: NodeJS.Platform) {
  return {
    /** Who wrote X-Forwarded-For: Vercel's edge, or this many proxies each appending to it (0: the client). */
    proxies: env.VERCEL
      ? ('vercel' as const)
      : wholeNumber(env, 'WAITLIST_TRUSTED_PROXY', 0, 0, 10),
    store: readStore(env, platform),
    storeTimeoutMs: wholeNumber(env, 'WAITLIST_STORE_TIMEOUT_MS', 8000, 100, 60_000),
    /** Posts a visitor may make a minute, here and in the database; 0: no limit per visitor. */
    perMinute: wholeNumber(env, 'WAITLIST_RATE_LIMIT_PER_MINUTE', 10, 0, 100_000),
  }
}

export function readServerConfig(env: Env, platform = process.platform): ConfigResult {
  try {
    return { ok: true, config: readConfig(env, platform) }
  } catch (error) {
    if (error instanceof ConfigProblem) return { ok: false, problem: error.message }
    throw error
  }
}

/** The caller names the folder: a path built here from the environment has Turbopack trace the whole project into the server. */
export function dataFolderProblem(dir: string, isSet: boolean): string | undefined {
  const where = path.resolve(dir)
  const variable = isSet
    ? `WAITLIST_DATA_DIR names ${where},`
    : `WAITLIST_DATA_DIR is not set, and its default folder ${where},`
  const found = statSync(where, { throwIfNoEntry: false })
  if (found && !found.isDirectory())
    return `${variable} which is a file, not a folder: name a folder (one that does not exist yet is made).`
  const parent = path.dirname(where)
  if (!found && isSet && !statSync(parent, { throwIfNoEntry: false })?.isDirectory())
    return `${variable} whose parent folder ${parent} does not exist: make it, or name another.`
  // The default folder is made with its parents: nothing to check before it exists.
  if (!found && !isSet) return undefined
  try {
    accessSync(found ? where : parent, constants.W_OK | constants.X_OK)
  } catch {
    const whose = found ? 'which' : 'in a folder that'
    return `${variable} ${whose} this user cannot write to: change its owner or permissions, or name another.`
  }
  return undefined
}

export function serverConfig(): ConfigResult {
  return processWide('waitlistConfig', () => {
    const read = readServerConfig(process.env)
    const store = read.ok ? read.config.store : undefined
    const named = Boolean(process.env.WAITLIST_DATA_DIR?.trim())
    const problem = store?.kind === 'embedded' ? dataFolderProblem(store.dataDir, named) : undefined
    const result: ConfigResult = problem ? { ok: false, problem } : read
    if (!result.ok)
      log.error(`signups are switched off by a configuration error: ${result.problem}`)
    return result
  })
}
