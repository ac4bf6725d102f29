import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { claimFolder, findOwner } from '@/lib/waitlist/data-folder'

/** Ownership of a data folder, between real processes. */
let folder: string
const children: ChildProcess[] = []

/**
 * `count` processes that claim the folder together: each is started and
 * loaded, then all are told to go at once. Resolves with what each says
 * (tests/support/claim-folder.ts) and its pid.
 */
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
