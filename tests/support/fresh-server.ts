import { vi } from 'vitest'
import type { WaitlistState } from '@/lib/waitlist/state'
import type { WaitlistStore } from '@/lib/waitlist/store'
import { noSupabase } from './environments'

export type JoinAction = (previous: WaitlistState, form: FormData) => Promise<WaitlistState>

/**
 * Stops the server the last {@link freshAction} started: its databases
 * closed and their folders let go of, its configuration and limits forgotten.
 */
export async function stopServer(): Promise<void> {
  const { closeEmbeddedStores } = await import('@/lib/waitlist/embedded-store')
  await closeEmbeddedStores()
  delete (globalThis as { waitlistServer?: unknown }).waitlistServer
}

/**
 * The action as a newly started server runs it with `env` (and no Supabase
 * unless `env` sets it), the server before it stopped: nothing read, no store
 * open, no visitor counted. The server keeps all three process-wide, so a
 * test that changes the environment must start from here.
 */
export async function freshAction(env: Record<string, string> = {}): Promise<JoinAction> {
  await stopServer()
  for (const [name, value] of Object.entries({ ...noSupabase, ...env })) vi.stubEnv(name, value)
  vi.resetModules()
  return (await import('@/lib/waitlist/actions')).joinWaitlist
}

/** A fresh server on a new embedded database in memory, with the store it writes to. */
export async function actionOnMemoryStore(
  env: Record<string, string> = {},
): Promise<{ joinWaitlist: JoinAction; store: WaitlistStore }> {
  const joinWaitlist = await freshAction({ WAITLIST_DATA_DIR: 'memory://', ...env })
  const { getWaitlistStore } = await import('@/lib/waitlist/choose-store')
  return { joinWaitlist, store: await getWaitlistStore() }
}
