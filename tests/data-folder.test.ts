import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { claimFolder, findOwner } from '@/lib/waitlist/data-folder'

/** Ownership of a data folder, between real processes. */
let folder: string
const children: ReturnType<typeof spawn>[] = []

/** A process that claims the folder; resolves with what it says ("won <pid>" or "lost to …"). */
async function claimer(): Promise<{ said: string; pid: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/support/claim-folder.ts', folder],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  children.push(child)
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer]
  return { said: chunk.toString('utf8').trim(), pid: child.pid! }
}

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'waitlist-folder-'))
})
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await rm(folder, { recursive: true, force: true })
})

it('is held by one live process, which says who it is, and is free the moment that process is killed', async () => {
  const { said, pid } = await claimer()
  expect(said).toBe(`won ${pid}`)
  expect(await claimFolder(folder)).toMatchObject({
    who: expect.stringContaining(`process ${pid} on`),
  })
  children[0]!.kill('SIGKILL')
  await once(children[0]!, 'exit')
  const claim = await claimFolder(folder)
  expect('release' in claim).toBe(true)
  if ('release' in claim) await claim.release()
  expect(await findOwner(folder)).toBeUndefined()
})

it('is never held by two of many processes that claim it at once', async () => {
  for (let round = 0; round < 3; round += 1) {
    const said = await Promise.all(Array.from({ length: 5 }, claimer))
    expect(said.filter(({ said }) => said.startsWith('won')).length).toBeLessThanOrEqual(1)
    for (const child of children.splice(0)) child.kill('SIGKILL')
  }
}, 60_000)
