import 'server-only'
import { ConfigError, readConfig, type ServerConfig } from '@/lib/env'
import { log } from '@/lib/log'

let config: ServerConfig | ConfigError | undefined

/**
 * The configuration, read at first use (never at build time). A broken one is
 * logged here, once, and thrown as the same {@link ConfigError} on every call.
 */
export function serverConfig(): ServerConfig {
  if (config === undefined) {
    try {
      config = readConfig()
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      config = error
      log.error(`signups are switched off by a configuration error: ${error.message}`)
    }
  }
  if (config instanceof ConfigError) throw config
  return config
}
