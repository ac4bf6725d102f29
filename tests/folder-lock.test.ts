import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  folderHolder,
  isFolderInUse,
  LOCK_STALE_MS,
  lockFolder,
  type FolderLock,
} from '@/lib/waitlist/folder-lock'
import { runScript, type Child } from './support/child-process'
import { allowForDatabaseStarts } from './support/timeouts'

allowForDatabaseStarts()

/**
 * One owner per data folder, proven with real processes: a holder is a
 * process of its own (tests/support/hold-folder-lock.ts), killed the way a
 * server dies.
 */
const HOLDER = 'tests/support/hold-folder-lock.ts'

let folder: string
const children: Child[] = []
const held: FolderLock[] = []

function holder(): Child {
  const child = runScript(HOLDER, [folder])
  children.push(child)
  return child
}

async function lockHere(): Promise<FolderLock> {
  const lock = await lockFolder(folder, { onLost: () => {} })
  held.push(lock)
  return lock
}

const lockDir = () => path.join(folder, 'waitlist.lock')

beforeEach(async () => {
  folder = path.join(await mkdtemp(path.join(os.tmpdir(), 'folder-lock-')), 'data')
})

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop('SIGKILL')))
  await Promise.all(held.splice(0).map((lock) => lock.release()))
  await rm(path.dirname(folder), { recursive: true, force: true })
})

describe('a data folder held by a running process', () => {
  it('is refused to another process, which is told the holder’s id and start time', async () => {
    const running = holder()
    await running.waitFor(/locked/)

    const refusal = await lockHere().catch((error: unknown) => error)
    expect(isFolderInUse(refusal)).toBe(true)
    if (!isFolderInUse(refusal)) return
    expect(refusal.holder?.pid).toBe(running.pid)
    expect(refusal.message).toContain(`process ${running.pid} on this machine, started `)
    expect(refusal.message).toContain(refusal.holder!.startedAt)
    expect(Date.parse(refusal.holder!.startedAt)).not.toBeNaN()
    // It cannot tell a crashed holder from a running one, so it says how long a crash keeps it.
    expect(refusal.message).toContain(
      'if that process has crashed, the folder is free within 20 seconds',
    )
  })

  it('is refused within one process too: a second open of a folder it holds', async () => {
    await lockHere()
    await expect(lockHere()).rejects.toMatchObject({ name: 'FolderInUseError' })
  })

  it('is free again once its holder stops with SIGTERM, which takes the lock away', async () => {
    const running = holder()
    await running.waitFor(/locked/)
    await running.stop('SIGTERM')

    await expect(stat(lockDir())).rejects.toMatchObject({ code: 'ENOENT' })
    await lockHere()
    expect(await folderHolder(folder)).toMatchObject({ holder: { pid: process.pid } })
  })

  it('is reported by folderHolder, for a reader that works from a copy', async () => {
    expect(await folderHolder(folder)).toBeUndefined()
    const running = holder()
    await running.waitFor(/locked/)
    expect(await folderHolder(folder)).toMatchObject({ holder: { pid: running.pid } })
  })
})

/** What time does to a lock nobody refreshes: its holder was killed, or stalled. */
async function ageLock(ms = LOCK_STALE_MS + 1000) {
  const at = new Date(Date.now() - ms)
  await utimes(lockDir(), at, at)
}

describe('a lock left by a process that was killed', () => {
  it('keeps the folder until it goes stale, then is taken over', async () => {
    const killed = holder()
    await killed.waitFor(/locked/)
    await killed.stop('SIGKILL')

    await expect(lockHere()).rejects.toThrow(`process ${killed.pid} on this machine`)
    await ageLock()
    await lockHere()
    const owner = JSON.parse(await readFile(path.join(folder, 'waitlist.owner.json'), 'utf8'))
    expect(owner.pid).toBe(process.pid)
  })

  it('goes, once stale, to exactly one of two processes that race for it', async () => {
    const killed = holder()
    await killed.waitFor(/locked/)
    await killed.stop('SIGKILL')
    // Each round's winner is killed in turn, leaving the next round its lock.
    for (let round = 0; round < 3; round++) {
      await ageLock()

      const racers = [holder(), holder()]
      const said = await Promise.all(racers.map((racer) => racer.waitFor(/(locked|refused) (\d+)/)))
      const winners = said.filter((match) => match[1] === 'locked')
      expect(winners).toHaveLength(1)
      const winner = racers[said.indexOf(winners[0]!)]!
      const loser = said.find((match) => match[1] === 'refused')!
      expect(Number(loser[2])).toBe(winner.pid)

      await Promise.all(racers.map((racer) => racer.stop('SIGKILL')))
    }
  })
})

describe('a lock held from another machine sharing the folder', () => {
  it('is refused, naming that machine', async () => {
    await mkdir(lockDir(), { recursive: true })
    const owner = {
      pid: 4242,
      host: 'another-machine',
      startedAt: '2026-01-01T00:00:00.000Z',
      title: 'next-server (v16.4.5)',
    }
    await writeFile(path.join(folder, 'waitlist.owner.json'), JSON.stringify(owner))
    await expect(lockHere()).rejects.toThrow(/process 4242 on another-machine/)
  })
})
