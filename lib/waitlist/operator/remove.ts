import { normaliseEmail } from '@/lib/waitlist/schema'

export type RemoveStatus = 'removed' | 'not on the list' | 'would be removed'
export type RemoveTally = { handled: number; removed: number }

export type RemoveOptions = {
  /**
   * Removes one address (a writer's `remove`), or with `dryRun` only looks it
   * up (a reader's `has`); either way, true when it was on the list.
   */
  act: (email: string) => Promise<boolean>
  dryRun: boolean
  report: (email: string, status: RemoveStatus) => void
}

/**
 * Removes each address, found however it was typed (trimmed and
 * lower-cased, as the site stores it), and says per address what happened.
 * An address that is not on the list is handled too: there is nothing to do.
 */
export async function removeAddresses(
  addresses: AsyncIterable<string>,
  { act, dryRun, report }: RemoveOptions,
): Promise<RemoveTally> {
  const tally: RemoveTally = { handled: 0, removed: 0 }
  for await (const raw of addresses) {
    const email = normaliseEmail(raw)
    if (!email) continue
    const on = await act(email)
    tally.handled += 1
    if (on) tally.removed += 1
    report(email, on ? (dryRun ? 'would be removed' : 'removed') : 'not on the list')
  }
  return tally
}
