import { z } from 'zod'

/**
 * Every setting the server and the operator commands read, checked here.
 * Variables are read by computed name on purpose: Next.js inlines
 * `process.env.NEXT_PUBLIC_*` at build time, and the store must follow the
 * environment the server starts with, not the one it was built with.
 */
export const SUPABASE_URL_VARS = ['NEXT_PUBLIC_SUPABASE_URL', 'SUPABASE_URL'] as const
export const SUPABASE_KEY_VARS = [
  'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY',
  'NEXT_PUBLIC_SUPABASE_ANON_KEY',
  'SUPABASE_ANON_KEY',
] as const

export const DEFAULT_DATA_DIR = '.data/waitlist'
export const IN_MEMORY_DATA_DIR = 'memory://'
export const DEFAULT_STORE_TIMEOUT_MS = 8000
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 10
export const RATE_LIMIT_VAR = 'WAITLIST_RATE_LIMIT_PER_MINUTE'
export const CEILING_VAR = 'WAITLIST_SIGNUPS_PER_MINUTE_CEILING'
export const TRUSTED_PROXY_VAR = 'WAITLIST_TRUSTED_PROXY'

export type StoreConfig =
  | { kind: 'supabase'; url: string; key: string; urlVar: string; keyVar: string }
  | { kind: 'embedded'; dataDir: string }

export type ServerConfig = {
  store: StoreConfig
  storeTimeoutMs: number
  /**
   * Signups a minute each visitor may make: the allowance this server asks the
   * database to apply, and its own first line in memory; 0 asks for none.
   */
  rateLimitPerMinute: number
  /**
   * The database's ceiling on new signups a minute from everyone (0: none),
   * as set in the environment: the embedded store applies it at start-up; on
   * Supabase it has no effect. Undefined when unset: the database keeps its own.
   */
  signupCeilingPerMinute: number | undefined
  /**
   * Who writes the `x-forwarded-for` the per-client limit is keyed on: Vercel's
   * edge, a reverse proxy the operator declared, or, failing both, whoever
   * sends the request (`next start` fills the header only when it is missing).
   */
  forwardedForSetBy: 'vercel' | 'proxy' | 'client'
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** By name, not `instanceof`: the error may come from another server bundle's copy of this module. */
export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof Error && error.name === 'ConfigError'
}

/** The environment, or a stand-in for it in a test. */
export type Env = Record<string, string | undefined>

/** The first of `names` that is set to something other than blanks, with its value trimmed. */
function firstSet(env: Env, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim()
    if (value) return { name, value }
  }
  return undefined
}

const httpUrl = z.url({ protocol: /^https?$/ })
const timeoutMs = z.coerce.number().int().min(100).max(60_000)
const perMinute = z.coerce.number().int().min(0).max(100_000)

/** The Supabase URL, if one of its variables is set; a malformed one is a {@link ConfigError} naming it. */
function readSupabaseUrl(env: Env): { name: string; value: string } | undefined {
  const url = firstSet(env, SUPABASE_URL_VARS)
  if (url && !httpUrl.safeParse(url.value).success) {
    throw new ConfigError(`${url.name} is not an http(s) URL: "${url.value}".`)
  }
  return url
}

/** The error for a Supabase key set without a URL to use it with. */
function urlMissingFor(keyVar: string): ConfigError {
  return new ConfigError(
    `${keyVar} is set but no Supabase URL is: set ${SUPABASE_URL_VARS.join(' or ')}.`,
  )
}

function readStore(env: Env): StoreConfig {
  const url = readSupabaseUrl(env)
  const key = firstSet(env, SUPABASE_KEY_VARS)

  if (url && !key) {
    throw new ConfigError(
      `${url.name} is set but no Supabase key is: set ${SUPABASE_KEY_VARS.join(' or ')}.`,
    )
  }
  if (key && !url) throw urlMissingFor(key.name)
  if (url && key) {
    return { kind: 'supabase', url: url.value, key: key.value, urlVar: url.name, keyVar: key.name }
  }
  if (env.VERCEL) {
    // A Vercel function's disk does not outlive the request, so an embedded
    // database there would quietly lose every signup.
    throw new ConfigError(
      `Supabase is not configured on this Vercel deployment: set ${SUPABASE_URL_VARS[0]} and ${SUPABASE_KEY_VARS[0]} for this environment.`,
    )
  }
  return { kind: 'embedded', dataDir: readDataDir(env) }
}

function readDataDir(env: Env): string {
  return env.WAITLIST_DATA_DIR?.trim() || DEFAULT_DATA_DIR
}

/** A whole-number variable, its default when unset, or a {@link ConfigError} saying what it must be. */
function readNumber<Fallback extends number | undefined>(
  env: Env,
  name: string,
  schema: z.ZodType<number, unknown>,
  fallback: Fallback,
  expected: string,
): number | Fallback {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new ConfigError(`${name} must be ${expected}, not "${raw}".`)
  return parsed.data
}

const yes = new Set(['1', 'true', 'yes'])
const no = new Set(['0', 'false', 'no'])

function readForwardedForSetBy(env: Env): ServerConfig['forwardedForSetBy'] {
  if (env.VERCEL) return 'vercel'
  const raw = env[TRUSTED_PROXY_VAR]?.trim() ?? ''
  if (!raw || no.has(raw.toLowerCase())) return 'client'
  if (yes.has(raw.toLowerCase())) return 'proxy'
  throw new ConfigError(
    `${TRUSTED_PROXY_VAR} must be 1 (a proxy in front overwrites X-Forwarded-For) or 0, not "${raw}".`,
  )
}

/** The server's configuration; throws a {@link ConfigError} naming the variable at fault. */
export function readServerConfig(env: Env = process.env): ServerConfig {
  const storeTimeoutMs = readNumber(
    env,
    'WAITLIST_STORE_TIMEOUT_MS',
    timeoutMs,
    DEFAULT_STORE_TIMEOUT_MS,
    'a whole number of milliseconds between 100 and 60000',
  )
  const rateLimitPerMinute = readNumber(
    env,
    RATE_LIMIT_VAR,
    perMinute,
    DEFAULT_RATE_LIMIT_PER_MINUTE,
    'a whole number of signups per minute (0 turns the limit off)',
  )
  const signupCeilingPerMinute = readNumber(
    env,
    CEILING_VAR,
    perMinute,
    undefined,
    'a whole number of signups per minute (0 turns the ceiling off)',
  )
  return {
    store: readStore(env),
    storeTimeoutMs,
    rateLimitPerMinute,
    signupCeilingPerMinute,
    forwardedForSetBy: readForwardedForSetBy(env),
  }
}

/** The keys that may do everything: every operator command on Supabase needs one, as the public key may only insert. */
export const SERVICE_KEY_VARS = ['SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_SECRET_KEY'] as const

export type OperatorStore =
  | { kind: 'supabase'; url: string; serviceKey: string; keyVar: string }
  | { kind: 'embedded'; dataDir: string }

/** The `role` claim of a legacy Supabase key (a JWT), if it is one. */
function jwtRole(key: string): unknown {
  const payload = key.split('.')[1]
  if (!payload) return undefined
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).role
  } catch {
    return undefined
  }
}

function isPublicKey(key: string, env: Env): boolean {
  if (key.startsWith('sb_publishable_') || jwtRole(key) === 'anon') return true
  return SUPABASE_KEY_VARS.some((name) => env[name]?.trim() === key)
}

/**
 * Where the operator commands find the list: the site's choice (Supabase when
 * a URL is set, else the embedded database), with the service key on Supabase.
 */
export function readOperatorStore(env: Env): OperatorStore {
  const url = readSupabaseUrl(env)
  const serviceKey = firstSet(env, SERVICE_KEY_VARS)
  const publicKey = firstSet(env, SUPABASE_KEY_VARS)
  const keyNames = SERVICE_KEY_VARS.join(' or ')

  if (!url && (serviceKey || publicKey)) throw urlMissingFor((serviceKey ?? publicKey)!.name)
  if (url) {
    if (!serviceKey) {
      throw new ConfigError(
        `The waitlist commands on Supabase need the service key: set ${keyNames} ` +
          `(Project Settings > API, the secret or service_role key). ` +
          `The public key can only add an address: it cannot read, count, change or remove any.`,
      )
    }
    if (isPublicKey(serviceKey.value, env)) {
      throw new ConfigError(
        `${serviceKey.name} holds the public key, which cannot read or change the list: set it to the secret or service_role key.`,
      )
    }
    return {
      kind: 'supabase',
      url: url.value,
      serviceKey: serviceKey.value,
      keyVar: serviceKey.name,
    }
  }
  const dataDir = readDataDir(env)
  if (dataDir === IN_MEMORY_DATA_DIR) {
    throw new ConfigError(
      `WAITLIST_DATA_DIR is ${IN_MEMORY_DATA_DIR}: that list lives inside the server process and cannot be read from outside it.`,
    )
  }
  return { kind: 'embedded', dataDir }
}
