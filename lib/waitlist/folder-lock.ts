import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import lockfile from 'proper-lockfile'
import { z } from 'zod'
import {
  currentProcess,
  describeProcess,
  liveness,
  type Liveness,
  type ProcessIdentity,
} from './process-identity'

/**
 * One owner per embedded data folder: PGlite takes no lock of its own, and
 * two processes writing one folder destroy it. The owner holds
 * `waitlist.lock` (proper-lockfile, refreshed while it lives) and names itself
 * in `waitlist.owner.json`. A lock not refreshed for {@link LOCK_STALE_MS},
 * or left by a process known to be gone, is taken over. Taking over is a
 * check then a removal, which two processes could interleave, so it happens
 * only while holding a second, short-lived lock: the gate.
 */
export const LOCK_STALE_MS = 20_000
const LOCK_UPDATE_MS = 5_000
/** The gate is held for a few file operations; one left by a crash is broken after this. */
const GATE_STALE_MS = 5_000

const LOCK = 'waitlist'
const GATE = 'waitlist-gate'
const OWNER = 'waitlist.owner.json'

/** The entries the lock keeps in a data folder: a copy of the folder leaves them out. */
export function isLockEntry(name: string): boolean {
  return name === `${LOCK}.lock` || name === `${GATE}.lock` || name.startsWith(OWNER)
}

export class FolderInUseError extends Error {
  override name = 'FolderInUseError'
  constructor(
    readonly folder: string,
    readonly holder: ProcessIdentity | undefined,
  ) {
    const who = holder ? describeProcess(holder) : 'another process, which did not say which'
    super(`The embedded database at ${folder} is in use by ${who}.`)
  }
}

/** By name, not `instanceof`: the server's bundles may each hold a copy of this module. */
export function isFolderInUse(error: unknown): error is FolderInUseError {
  return error instanceof Error && error.name === 'FolderInUseError'
}

export type FolderLock = {
  folder: string
  /** Lets go of the folder; the owner file stays, and only counts while the lock exists. */
  release(): Promise<void>
}

export type LockOptions = {
  /**
   * Called if the lock is lost while held: its time could not be refreshed
   * for {@link LOCK_STALE_MS} (a stalled process) and another process may
   * have taken the folder over. The holder must stop writing at once.
   */
  onLost(error: Error): void
}

const ownerSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  startedAt: z.string(),
  title: z.string(),
  bootId: z.string().optional(),
  pidNamespace: z.string().optional(),
  processStart: z.string().optional(),
})

async function readOwner(folder: string): Promise<ProcessIdentity | undefined> {
  try {
    const parsed = ownerSchema.safeParse(
      JSON.parse(await readFile(path.join(folder, OWNER), 'utf8')),
    )
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** Written whole and renamed into place, so a reader never sees half an owner. */
async function writeOwner(folder: string, owner: ProcessIdentity): Promise<void> {
  const file = path.join(folder, OWNER)
  const temporary = `${file}.${process.pid}.tmp`
  await writeFile(temporary, JSON.stringify(owner, null, 2) + '\n')
  await rename(temporary, file)
}

function isLocked(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ELOCKED'
}

/** Takes the folder's lock; the caller holds the gate. */
async function takeLock(folder: string, onLost: (error: Error) => void) {
  const file = path.join(folder, LOCK)
  const options = {
    realpath: false,
    stale: LOCK_STALE_MS,
    update: LOCK_UPDATE_MS,
    onCompromised: onLost,
  }
  try {
    return await lockfile.lock(file, options)
  } catch (error) {
    if (!isLocked(error)) throw error
    const holder = await readOwner(folder)
    if (!holder || liveness(holder) !== 'gone') throw new FolderInUseError(folder, holder)
    // Its owner is gone and cannot refresh it: remove it now rather than wait for it to go stale.
    await rm(`${file}.lock`, { recursive: true, force: true })
    return await lockfile.lock(file, options)
  }
}

/**
 * Makes this process the folder's one owner, creating the folder if needed,
 * or throws a {@link FolderInUseError} naming the process that owns it.
 */
export async function lockFolder(folder: string, { onLost }: LockOptions): Promise<FolderLock> {
  const dir = path.resolve(folder)
  await mkdir(dir, { recursive: true })
  const closeGate = await lockfile.lock(path.join(dir, GATE), {
    realpath: false,
    stale: GATE_STALE_MS,
    retries: { retries: 60, minTimeout: 20, maxTimeout: 200 },
    // Held for milliseconds; losing it afterwards changes nothing.
    onCompromised: () => {},
  })
  try {
    const unlock = await takeLock(dir, onLost)
    try {
      await writeOwner(dir, currentProcess())
    } catch (error) {
      await unlock()
      throw error
    }
    let released = false
    return {
      folder: dir,
      async release() {
        if (released) return
        released = true
        await unlock().catch((error: unknown) => {
          // Already let go of, because it was lost: nothing is left to release.
          if ((error as { code?: unknown }).code !== 'ERELEASED') throw error
        })
      },
    }
  } finally {
    await closeGate().catch(() => {})
  }
}

export type FolderHolder = { holder: ProcessIdentity | undefined; liveness: Liveness }

/** Who holds the folder now, if anyone: for a reader that works from a copy and wants to say so. */
export async function folderHolder(folder: string): Promise<FolderHolder | undefined> {
  const dir = path.resolve(folder)
  const held = await lockfile
    .check(path.join(dir, LOCK), { realpath: false, stale: LOCK_STALE_MS })
    .catch(() => false)
  if (!held) return undefined
  const holder = await readOwner(dir)
  return { holder, liveness: holder ? liveness(holder) : 'unknown' }
}
