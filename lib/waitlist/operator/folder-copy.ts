import 'server-only'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { isLockEntry } from '@/lib/waitlist/folder-lock'
import { hasDatabase } from '@/lib/waitlist/open-local-database'
import { ReadError } from './reader'

export type FolderCopy = { path: string; discard(): Promise<void> }

/**
 * The embedded database's folder, copied to a temporary one without its
 * lock. The server's folder is never opened here: only its owner may open
 * it, and reading must not wait for a server to stop.
 */
export async function copyDatabaseFolder(source: string): Promise<FolderCopy> {
  if (!(await hasDatabase(source))) {
    throw new ReadError(
      `There is no embedded database at ${source}: no signup has been stored on this machine yet, ` +
        `or WAITLIST_DATA_DIR points elsewhere.`,
    )
  }
  const copy = await mkdtemp(path.join(os.tmpdir(), 'waitlist-read-'))
  const discard = () => rm(copy, { recursive: true, force: true })
  try {
    await cp(source, copy, {
      recursive: true,
      filter: (from) => {
        const name = path.basename(from)
        return !(path.dirname(from) === source && (isLockEntry(name) || name === 'postmaster.pid'))
      },
    })
  } catch (error) {
    await discard()
    throw unreadableCopy(source, error)
  }
  return { path: copy, discard }
}

/** A copy that cannot be opened: most likely one taken while a server wrote to the folder. */
export function unreadableCopy(source: string, cause: unknown): ReadError {
  return new ReadError(
    `Could not open a copy of the embedded database at ${source}. ` +
      `If a server is writing to it, stop the server and try again.`,
    { cause },
  )
}
