import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { claimFolder, findOwner, openFolder } from '@/lib/waitlist/data-folder'

/** Ownership of a data folder, between real processes. */
let folder: string

/** A disk on which `stuck.dir` is never created until `stuck.answer()`; it counts the listings of that folder. */
const stuck = vi.hoisted(() => ({ dir: '', hangs: false, answer: () => {}, listings: 0 }))
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>()
  const mkdir = ((where: string, options: never) =>
    stuck.hangs && where === stuck.dir
      ? new Promise<string | undefined>(
          (resolve) => (stuck.answer = () => resolve(fs.mkdir(where, options))),
        )
      : fs.mkdir(where, options)) as typeof fs.mkdir
  const readdir = ((where: string, options: never) => {
    if (where === stuck.dir) stuck.listings += 1
    return fs.readdir(where, options)
  }) as typeof fs.readdir
  return { ...fs, default: { ...fs, mkdir, readdir }, mkdir, readdir }
})
const children: ChildProcess[] = []

/** Claimants (tests/support/claim-folder.ts) let go together only once all have loaded, to race. */
async function race(count: number): Promise<{ said: string; pid: number }[]> {
  const racers = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'tests/support/claim-folder.ts', folder], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  )
  children.push(...racers)
  const lines = racers.map((child) =>
    createInterface({ input: child.stdout })[Symbol.asyncIterator](),
  )
  for (const line of lines) expect((await line.next()).value).toBe('ready')
  for (const child of racers) child.stdin.write('go\n')
  return Promise.all(
    lines.map(async (line, i) => ({
      said: String((await line.next()).value),
      pid: racers[i]!.pid!,
    })),
  )
}

async function killAll() {
  const racers = children.splice(0)
  const exited = racers.map((child) => child.exitCode === null && once(child, 'exit'))
  for (const child of racers) child.kill('SIGKILL')
  await Promise.all(exited)
}

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'waitlist-folder-'))
})
afterEach(async () => {
  await killAll()
  await rm(folder, { recursive: true, force: true })
})

it('is held by one live process, which says who it is, and is free the moment that process is killed', async () => {
  const [{ said, pid }] = (await race(1)) as [{ said: string; pid: number }]
  expect(said).toBe(`won ${pid}`)
  expect(await claimFolder(folder)).toMatchObject({
    who: expect.stringContaining(`process ${pid} on`),
  })
  await killAll()
  const claim = await claimFolder(folder)
  expect('release' in claim).toBe(true)
  if ('release' in claim) await claim.release()
  expect(await findOwner(folder)).toBeUndefined()
})

it('stays held when those who ask hang up before they are answered', async () => {
  const [{ said, pid }] = (await race(1)) as [{ said: string; pid: number }]
  expect(said).toBe(`won ${pid}`)
  const owner = (await readdir(folder)).find((name) => name.startsWith('.owner.'))!
  const hungUp = Array.from({ length: 50 }, () => {
    const socket = net.connect(path.join(folder, owner)).on('error', () => {})
    socket.destroy()
    return once(socket, 'close')
  })
  await Promise.all(hungUp)
  // Asked again after every hang-up has reached it: it answers, alive.
  expect((await findOwner(folder))?.who).toContain(`process ${pid} on`)
  expect(children[0]!.exitCode).toBeNull()
})

it('is held by exactly one of many processes that claim it at the same moment', async () => {
  for (let round = 0; round < 3; round += 1) {
    const said = await race(5)
    const winners = said.filter(({ said, pid }) => said === `won ${pid}`)
    expect(winners, said.map(({ said }) => said).join('\n')).toHaveLength(1)
    expect((await findOwner(folder))?.who).toContain(`process ${winners[0]!.pid} on`)
    await killAll()
  }
}, 120_000)

it('is given up on when the disk never answers, and a claim the disk grants later is let go of', async () => {
  Object.assign(stuck, { dir: path.join(folder, 'on-a-stuck-disk'), hangs: true })
  await expect(openFolder(stuck.dir, 300)).rejects.toThrow(
    `the embedded database in ${stuck.dir} did not open within 300 ms: its disk did not answer`,
  )
  stuck.hangs = false
  const listed = stuck.listings
  stuck.answer()
  // Listed twice more once the late claim listens: asked for rivals, then swept what others left.
  await vi.waitFor(() => expect(stuck.listings).toBeGreaterThanOrEqual(listed + 2))
  await vi.waitFor(async () => expect(await findOwner(stuck.dir)).toBeUndefined())
})
