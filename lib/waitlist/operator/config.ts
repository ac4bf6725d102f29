import {
  ConfigError,
  DEFAULT_DATA_DIR,
  firstSet,
  IN_MEMORY_DATA_DIR,
  readSupabaseUrl,
  SUPABASE_KEY_VARS,
  urlMissingFor,
  type Env,
} from '@/lib/env'

/**
 * Where the operator commands find the list. The same choice as the site's
 * (Supabase when a URL is set, else the embedded database), but every
 * command on Supabase needs the service key: the public key may only insert.
 */
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
  const dataDir = env.WAITLIST_DATA_DIR?.trim() || DEFAULT_DATA_DIR
  if (dataDir === IN_MEMORY_DATA_DIR) {
    throw new ConfigError(
      `WAITLIST_DATA_DIR is ${IN_MEMORY_DATA_DIR}: that list lives inside the server process and cannot be read from outside it.`,
    )
  }
  return { kind: 'embedded', dataDir }
}
