import { normaliseEmail } from '@/lib/waitlist/schema'
import type { WaitlistWriter } from './writer'

export type RemoveStatus = 'removed' | 'not on the list' | 'would be removed'
export type RemoveTally = { handled: number; removed: number }

/**
 * Removes each address, found however it was typed (trimmed and
 * lower-cased, as the site stores it), and says per address what happened.
 * An address that is not on the list is handled too: there is nothing to do.
 * With `dryRun`, only looks.
 */
export async function removeAddresses(
  addresses: AsyncIterable<string>,
  writer: WaitlistWriter,
  { dryRun, report }: { dryRun: boolean; report: (email: string, status: RemoveStatus) => void },
): Promise<RemoveTally> {
  const tally: RemoveTally = { handled: 0, removed: 0 }
  for await (const raw of addresses) {
    const email = normaliseEmail(raw)
    if (!email) continue
    const on = dryRun ? await writer.has(email) : await writer.remove(email)
    tally.handled += 1
    if (on) tally.removed += 1
    report(email, on ? (dryRun ? 'would be removed' : 'removed') : 'not on the list')
  }
  return tally
}
