import { mkdir, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import lockfile from 'proper-lockfile'
import { z } from 'zod'

/**
 * One owner per embedded data folder: PGlite takes no lock of its own, and
 * two processes writing one folder destroy it. The owner holds
 * `waitlist.lock` (proper-lockfile, refreshed every {@link LOCK_UPDATE_MS})
 * and names itself in `waitlist.owner.json`, for the message a refused
 * process shows. A lock not refreshed for {@link LOCK_STALE_MS}, as one left
 * by a crash, is taken over by proper-lockfile. It does so by a check then a
 * removal, which two processes can interleave so that both hold the lock; so
 * the lock is only ever taken, and its owner named, while holding a second,
 * short-lived lock: the gate.
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
  return name === `${LOCK}.lock` || name === `${GATE}.lock` || name === OWNER
}

const ownerSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  /** ISO 8601 in UTC: what a person reads to recognise the process. */
  startedAt: z.string(),
  /** e.g. `next-server (v16.4.6)`, or `node waitlist.ts`: never its arguments, which may hold addresses. */
  title: z.string(),
})
export type FolderOwner = z.infer<typeof ownerSchema>

function currentOwner(): FolderOwner {
  const script = process.argv[1]
  return {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    title: process.title === 'node' && script ? `node ${path.basename(script)}` : process.title,
  }
}

/** `next-server (v16.4.6), process 4242 on this machine, started 2026-11-22T10:00:00.000Z`. */
export function describeOwner(owner: FolderOwner): string {
  const where = owner.host === os.hostname() ? 'on this machine' : `on ${owner.host}`
  return `${owner.title}, process ${owner.pid} ${where}, started ${owner.startedAt}`
}

async function readOwner(folder: string): Promise<FolderOwner | undefined> {
  try {
    const parsed = ownerSchema.safeParse(
      JSON.parse(await readFile(path.join(folder, OWNER), 'utf8')),
    )
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

export class FolderInUseError extends Error {
  override name = 'FolderInUseError'
  constructor(
    readonly folder: string,
    readonly holder: FolderOwner | undefined,
  ) {
    const who = holder ? describeOwner(holder) : 'another process, which did not say which'
    super(
      `The embedded database at ${folder} is in use by ${who}; ` +
        `if that process has crashed, the folder is free within ${LOCK_STALE_MS / 1000} seconds.`,
    )
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
    const unlock = await lockfile
      .lock(path.join(dir, LOCK), {
        realpath: false,
        stale: LOCK_STALE_MS,
        update: LOCK_UPDATE_MS,
        onCompromised: onLost,
      })
      .catch(async (error: unknown) => {
        if ((error as { code?: unknown }).code !== 'ELOCKED') throw error
        throw new FolderInUseError(dir, await readOwner(dir))
      })
    try {
      await writeFile(path.join(dir, OWNER), JSON.stringify(currentOwner(), null, 2) + '\n')
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

/**
 * Who holds the folder now, if anyone: for a reader that works from a copy
 * and wants to say so. A server that crashed holds it until its lock goes stale.
 */
export async function folderHolder(
  folder: string,
): Promise<{ holder: FolderOwner | undefined } | undefined> {
  const dir = path.resolve(folder)
  const held = await lockfile
    .check(path.join(dir, LOCK), { realpath: false, stale: LOCK_STALE_MS })
    .catch(() => false)
  return held ? { holder: await readOwner(dir) } : undefined
}
