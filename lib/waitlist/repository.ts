import 'server-only'
import { ConfigError } from '@/lib/env'
import { log } from '@/lib/log'
import { sharedEmbeddedStore } from './embedded-store'
import { serverConfig } from './server-config'
import { supabaseStore } from './supabase-store'
import { withTimeout, type WaitlistStore } from './store'

let store: WaitlistStore | undefined

/**
 * The store this server writes signups to, chosen from the configuration at
 * first use (never at build time) and announced once in the log.
 */
export async function getWaitlistStore(): Promise<WaitlistStore> {
  if (store) return store
  const { store: chosen, storeTimeoutMs } = serverConfig()
  const opened =
    chosen.kind === 'supabase'
      ? supabaseStore({ url: chosen.url, key: chosen.key, timeoutMs: storeTimeoutMs })
      : await sharedEmbeddedStore(chosen.dataDir)
  if (!store) log.info(`signups go to ${opened.description}`)
  store = withTimeout(opened, storeTimeoutMs)
  return store
}

/** Opens the store ahead of the first signup. Failures are logged, and the first signup tries again. */
export function prepareWaitlistStore(): void {
  getWaitlistStore().catch((error: unknown) => {
    if (!(error instanceof ConfigError))
      log.error('the waitlist store could not be opened', { cause: error })
  })
}
