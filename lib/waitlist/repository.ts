import 'server-only'
import { isConfigError } from '@/lib/env'
import { log } from '@/lib/log'
import { sharedEmbeddedStore } from './embedded-store'
import { processWide, serverConfig } from './server-config'
import { supabaseStore } from './supabase-store'
import { withTimeout, type WaitlistStore } from './store'

/**
 * The store this server writes signups to, chosen from the configuration at
 * first use (never at build time) and announced once in the log.
 */
export async function getWaitlistStore(): Promise<WaitlistStore> {
  if (processWide.store) return processWide.store as WaitlistStore
  const { store: chosen, storeTimeoutMs } = serverConfig()
  const opened =
    chosen.kind === 'supabase'
      ? supabaseStore({ url: chosen.url, key: chosen.key, timeoutMs: storeTimeoutMs })
      : await sharedEmbeddedStore(chosen.dataDir)
  if (!processWide.store) {
    const from = chosen.kind === 'supabase' ? ` (${chosen.urlVar}, ${chosen.keyVar})` : ''
    log.info(`signups go to ${opened.description}${from}`)
    processWide.store = withTimeout(opened, storeTimeoutMs)
  }
  return processWide.store as WaitlistStore
}

/** Opens the store ahead of the first signup. Failures are logged, and the first signup tries again. */
export function prepareWaitlistStore(): void {
  getWaitlistStore().catch((error: unknown) => {
    if (!isConfigError(error)) log.error('the waitlist store could not be opened', { cause: error })
  })
}
