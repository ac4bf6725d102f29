import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/** `scripts/check-node.mjs`, run first by `npm test`, `npm run dev` and the other commands. */
let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'check-node-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function check(range?: string, node = process.execPath) {
  const args = ['scripts/check-node.mjs']
  if (range) {
    const manifest = path.join(dir, `${range.replace(/\W/g, '_')}.json`)
    await writeFile(manifest, JSON.stringify({ engines: { node: range } }))
    args.push(manifest)
  }
  return promisify(execFile)(node, args).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )
}

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]

describe('the Node.js check', () => {
  it('says nothing on the Node.js this project runs on', async () => {
    expect(await check()).toEqual({ code: 0, stdout: '', stderr: '' })
    expect(await check(`>=${major}.${minor}.0`)).toMatchObject({ code: 0, stderr: '' })
    expect(await check(`>=${major - 1}.99`)).toMatchObject({ code: 0, stderr: '' })
  })

  it.each([`>=${major + 1}`, `>=${major}.${minor + 1}`, '>= 99.0.0'])(
    'says in one line that a Node.js older than %s will not do, and exits 1',
    async (range) => {
      const wanted = /\d+/.exec(range)![0]
      expect(await check(range)).toMatchObject({
        code: 1,
        stdout: '',
        stderr:
          `This project needs Node.js ${range}, and this is Node.js ${process.version}: ` +
          `run \`nvm use\` (see .nvmrc) or install Node.js ${wanted} or newer.\n`,
      })
    },
  )

  // The machine's own Node.js, where it is an old one (Debian 12 ships 20): the real case.
  const systemNode = '/usr/bin/node'
  it.runIf(existsSync(systemNode))('stops an older Node.js found on this machine', async () => {
    const { stdout } = await promisify(execFile)(systemNode, ['-p', 'process.versions.node'])
    const result = await check(undefined, systemNode)
    if (Number(stdout.split('.')[0]) >= 24) expect(result.code).toBe(0)
    else expect(result.stderr).toMatch(/^This project needs Node\.js >=24, and this is Node\.js v/)
  })
})
