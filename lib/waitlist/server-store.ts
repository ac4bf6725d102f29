import 'server-only'
import { serverConfig, SIGNING_SECRET_VAR, type StoreConfig } from '@/lib/env'
import { log } from '@/lib/log'
import { processWide } from '@/lib/process-wide'
import type { WaitlistStore } from './store'

/** Each store's code is loaded only where it is the store: a server on Supabase never loads PGlite. */
async function openConfigured(store: StoreConfig, perMinute: number): Promise<WaitlistStore> {
  if (store.kind === 'supabase') {
    const { supabaseStore } = await import('./supabase-store')
    return supabaseStore(store, perMinute)
  }
  const { embeddedStore } = await import('./embedded-store')
  return embeddedStore(store.dataDir, perMinute)
}

async function open(): Promise<WaitlistStore> {
  const configured = serverConfig()
  if (!configured.ok) throw new Error(`not configured: ${configured.problem}`)
  const { store, perMinute } = configured.config
  try {
    const opened = await openConfigured(store, perMinute)
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

/** The store this process opens once; after a failed opening, the next call tries again. */
export function waitlistStore(): Promise<WaitlistStore> {
  const shared = processWide('waitlistStore', (): { opening?: Promise<WaitlistStore> } => ({}))
  shared.opening ??= open().catch((error: unknown) => {
    shared.opening = undefined
    throw error
  })
  return shared.opening
}
