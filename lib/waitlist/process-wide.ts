import 'server-only'
import { isConfigError, readServerConfig, type ConfigError, type ServerConfig } from '@/lib/env'
import { log } from '@/lib/log'

type Shared = {
  config?: { ok: true; value: ServerConfig } | { ok: false; error: ConfigError }
  store?: unknown
  /** This server's limit state (visitor-limits.ts), one per process like the store. */
  limits?: unknown
  keyWarningDone?: boolean
}

/**
 * Process-wide state, kept on `globalThis` rather than in module scope: the
 * server's instrumentation and its actions are bundled apart (and dev reloads
 * modules), yet the process must read its configuration, open its store and
 * say so exactly once.
 */
export const processWide = ((
  globalThis as typeof globalThis & { waitlistServer?: Shared }
).waitlistServer ??= {})

/**
 * The configuration lib/env.ts reads, read once per process at first use
 * (never at build time). A broken one is logged here, once, and thrown as the
 * same {@link ConfigError} on every call.
 */
export function serverConfig(): ServerConfig {
  if (processWide.config === undefined) {
    try {
      processWide.config = { ok: true, value: readServerConfig() }
    } catch (error) {
      if (!isConfigError(error)) throw error
      processWide.config = { ok: false, error }
      log.error(`signups are switched off by a configuration error: ${error.message}`)
    }
  }
  if (!processWide.config.ok) throw processWide.config.error
  return processWide.config.value
}
