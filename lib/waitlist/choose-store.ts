import 'server-only'
import { isConfigError } from '@/lib/env'
import { log } from '@/lib/log'
import { announceEmbeddedLimits, announceSupabaseLimits } from './announce-limits'
import { sharedEmbeddedStore } from './embedded-store'
import { processWide, serverConfig } from './process-wide'
import { supabaseStore } from './supabase-store'
import { isStoreUnavailable, withTimeout, type WaitlistStore } from './store'

/** One timed wrapper per open store, so every caller is handed the same object. */
const timed = new WeakMap<WaitlistStore, WaitlistStore>()

/**
 * The store this server writes signups to, chosen from the configuration at
 * first use (never at build time) and announced once in the log.
 */
export async function getWaitlistStore(): Promise<WaitlistStore> {
  if (processWide.store) return processWide.store as WaitlistStore
  const config = serverConfig()
  const { store: chosen, storeTimeoutMs } = config
  if (chosen.kind === 'embedded') {
    // Asked for at every signup, not kept here: it may be waiting for its folder, or reopen after losing it.
    const open = await sharedEmbeddedStore(chosen.dataDir, {
      signupCeilingPerMinute: config.signupCeilingPerMinute,
    })
    let store = timed.get(open)
    if (!store) {
      timed.set(open, (store = withTimeout(open, storeTimeoutMs)))
      announceEmbeddedLimits(open.description, open.signupsPerMinute, config)
    }
    return store
  }
  const store = withTimeout(supabaseStore(chosen), storeTimeoutMs)
  log.info(`signups go to ${store.description} (${chosen.urlVar}, ${chosen.keyVar})`)
  processWide.store = store
  announceSupabaseLimits(config)
  return store
}

/** Opens the store ahead of the first signup. Failures are logged, and the first signup tries again. */
export function prepareWaitlistStore(): void {
  getWaitlistStore().catch((error: unknown) => {
    // Both of these were logged, in full, where they were found.
    if (isConfigError(error) || isStoreUnavailable(error)) return
    log.error('the waitlist store could not be opened', { cause: error })
  })
}
