import 'server-only'
import { isConfigError, readConfig, type ConfigError, type ServerConfig } from '@/lib/env'
import { log } from '@/lib/log'
import { sharedEmbeddedStore } from './embedded-store'
import { supabaseStore } from './supabase-store'
import { withTimeout, type WaitlistStore } from './store'

/**
 * Kept on `globalThis`, not in module scope: the server's instrumentation and
 * its actions are bundled apart (and dev reloads modules), yet the process
 * must read its configuration, open its store and say so exactly once.
 */
const shared = ((
  globalThis as typeof globalThis & { waitlistRepository?: Repository }
).waitlistRepository ??= {})

type Repository = {
  config?: { ok: true; value: ServerConfig } | { ok: false; error: ConfigError }
  store?: WaitlistStore
}

/** The configuration, read at first use. A broken one is logged here, once, and thrown on every call. */
function serverConfig(): ServerConfig {
  if (shared.config === undefined) {
    try {
      shared.config = { ok: true, value: readConfig() }
    } catch (error) {
      if (!isConfigError(error)) throw error
      shared.config = { ok: false, error }
      log.error(`signups are switched off by a configuration error: ${error.message}`)
    }
  }
  if (!shared.config.ok) throw shared.config.error
  return shared.config.value
}

/**
 * The store this server writes signups to, chosen from the configuration at
 * first use (never at build time) and announced once in the log.
 */
export async function getWaitlistStore(): Promise<WaitlistStore> {
  if (shared.store) return shared.store
  const { store: chosen, storeTimeoutMs } = serverConfig()
  const opened =
    chosen.kind === 'supabase'
      ? supabaseStore({ url: chosen.url, key: chosen.key, timeoutMs: storeTimeoutMs })
      : await sharedEmbeddedStore(chosen.dataDir)
  if (!shared.store) log.info(`signups go to ${opened.description}`)
  shared.store ??= withTimeout(opened, storeTimeoutMs)
  return shared.store
}

/** Opens the store ahead of the first signup. Failures are logged, and the first signup tries again. */
export function prepareWaitlistStore(): void {
  getWaitlistStore().catch((error: unknown) => {
    if (!isConfigError(error)) log.error('the waitlist store could not be opened', { cause: error })
  })
}
