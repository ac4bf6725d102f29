import { vi } from 'vitest'
import type { WaitlistState } from '@/lib/waitlist/state'

export type JoinAction = (previous: WaitlistState, form: FormData) => Promise<WaitlistState>

/**
 * The action as a newly started server would run it: configuration not yet
 * read, no store opened. The server keeps both process-wide, so a test that
 * changes the environment must start from here.
 */
export async function freshAction(): Promise<JoinAction> {
  delete (globalThis as { waitlistServer?: unknown }).waitlistServer
  vi.resetModules()
  return (await import('@/lib/waitlist/actions')).joinWaitlist
}
