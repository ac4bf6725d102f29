import { vi } from 'vitest'
import type { WaitlistState } from '@/lib/waitlist/state'
import type { WaitlistStore } from '@/lib/waitlist/store'
import { noSupabase } from './environments'

export type JoinAction = (previous: WaitlistState, form: FormData) => Promise<WaitlistState>

/**
 * The action as a newly started server would run it with `env` (and no
 * Supabase unless `env` sets it): configuration not yet read, no store
 * opened. The server keeps both process-wide, so a test that changes the
 * environment must start from here.
 */
export async function freshAction(env: Record<string, string> = {}): Promise<JoinAction> {
  for (const [name, value] of Object.entries({ ...noSupabase, ...env })) vi.stubEnv(name, value)
  delete (globalThis as { waitlistServer?: unknown }).waitlistServer
  vi.resetModules()
  return (await import('@/lib/waitlist/actions')).joinWaitlist
}

/**
 * A fresh server on the embedded store in memory, with the store it writes
 * to: a new database, as a newly started process has (the one an earlier
 * server of the test left open is dropped, not reused).
 */
export async function actionOnMemoryStore(
  env: Record<string, string> = {},
): Promise<{ joinWaitlist: JoinAction; store: WaitlistStore }> {
  const folders = (globalThis as { embeddedWaitlistFolders?: { stores: Map<string, unknown> } })
    .embeddedWaitlistFolders
  folders?.stores.delete('memory://')
  const joinWaitlist = await freshAction({ WAITLIST_DATA_DIR: 'memory://', ...env })
  const { getWaitlistStore } = await import('@/lib/waitlist/choose-store')
  return { joinWaitlist, store: await getWaitlistStore() }
}
