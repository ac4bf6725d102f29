/**
 * A process of its own that takes a data folder's lock, as a server does:
 *   node --import tsx tests/support/hold-folder-lock.ts <folder>
 * It prints `locked <pid>` and holds the folder until it is killed, or
 * `refused <holder pid>` and exits when another process holds it.
 */
import { isFolderInUse, lockFolder } from '@/lib/waitlist/folder-lock'

const folder = process.argv[2]
if (!folder) throw new Error('usage: hold-folder-lock.ts <folder>')

try {
  await lockFolder(folder, { onLost: () => process.exit(3) })
  process.stdout.write(`locked ${process.pid}\n`)
  // Held until killed; the lock's own timer keeps it fresh.
  setInterval(() => {}, 60_000)
} catch (error) {
  if (!isFolderInUse(error)) throw error
  process.stdout.write(`refused ${error.holder?.pid ?? 'unknown'}\n`)
}
