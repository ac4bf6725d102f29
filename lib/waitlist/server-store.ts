import 'server-only'
import { serverConfig, SIGNING_SECRET_VAR } from '@/lib/env'
import { log } from '@/lib/log'
import { processWide } from '@/lib/process-wide'
import type { WaitlistStore } from './store'

async function open(): Promise<WaitlistStore> {
  const configured = serverConfig()
  if (!configured.ok) throw new Error(`not configured: ${configured.problem}`)
  const { store, perMinute } = configured.config
  try {
    // Each store's code is loaded only where it is the store: a server on Supabase never loads PGlite.
    const opened =
      store.kind === 'supabase'
        ? (await import('./supabase-store')).supabaseStore(store, perMinute)
        : await (await import('./embedded-store')).embeddedStore(store.dataDir, perMinute)
    log.info(`signups go to ${opened.description}`)
    if (store.kind === 'supabase' && !store.signingSecret)
      log.warn(
        `${SIGNING_SECRET_VAR} is not set, and the database takes only signed signups: every one will be refused until it is set here and in the database (docs/supabase.md#signing).`,
      )
    return opened
  } catch (error) {
    log.error('the waitlist store could not be opened; the next signup tries again', {
      cause: error,
    })
    throw error
  }
}

export function waitlistStore(): Promise<WaitlistStore> {
  const kept = processWide('waitlistStore', (): { opening?: Promise<WaitlistStore> } => ({}))
  return (kept.opening ??= open().catch((error: unknown) => {
    kept.opening = undefined
    throw error
  }))
}
