import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScript } from './support/child-process'

/**
 * The commands read the `.env` files Next reads, in Next's order, for the
 * mode NODE_ENV names. Each file sets FROM to its own name: the first file
 * read wins. SHARED is set only in `.env`, the last file of every mode.
 */
const FILES = [
  '.env',
  '.env.local',
  '.env.development',
  '.env.development.local',
  '.env.production',
  '.env.production.local',
  '.env.test',
  '.env.test.local',
]

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'env-files-'))
  for (const name of FILES) {
    await writeFile(path.join(dir, name), `FROM=${name}\n${name === '.env' ? 'SHARED=yes\n' : ''}`)
  }
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function loaded(env: Record<string, string>, folder = dir) {
  // The loader writes to process.env: a process of its own for each run.
  const child = runScript('tests/support/print-env-files.ts', [folder], env)
  const [line] = await child.waitFor(/^\{.*\}$/m)
  await child.stop()
  return JSON.parse(line) as { files: string[]; FROM?: string; SHARED?: string }
}

describe('the .env files the commands read', () => {
  it.each([
    [
      'as next dev, by default',
      { NODE_ENV: '' },
      ['.env.development.local', '.env.local', '.env.development', '.env'],
    ],
    [
      'as next dev, with NODE_ENV=development',
      { NODE_ENV: 'development' },
      ['.env.development.local', '.env.local', '.env.development', '.env'],
    ],
    [
      'as next start, with NODE_ENV=production',
      { NODE_ENV: 'production' },
      ['.env.production.local', '.env.local', '.env.production', '.env'],
    ],
    [
      'as a test run, with NODE_ENV=test',
      { NODE_ENV: 'test' },
      ['.env.test.local', '.env.test', '.env'],
    ],
  ])('%s: in this order, the first one winning', async (_mode, env, files) => {
    expect(await loaded(env)).toEqual({
      files,
      FROM: files[0],
      SHARED: 'yes',
    })
  })

  it('lets a variable set in the shell win over every file', async () => {
    const result = await loaded({ NODE_ENV: 'production', FROM: 'shell' })
    expect(result.FROM).toBe('shell')
  })

  it('goes down the list to the first file that is there', async () => {
    const sparse = await mkdtemp(path.join(os.tmpdir(), 'env-files-'))
    try {
      await writeFile(path.join(sparse, '.env'), 'FROM=.env\n')
      await writeFile(path.join(sparse, '.env.local'), 'FROM=.env.local\n')
      expect(await loaded({ NODE_ENV: 'development' }, sparse)).toMatchObject({
        files: ['.env.local', '.env'],
        FROM: '.env.local',
      })
      expect(await loaded({ NODE_ENV: 'test' }, sparse)).toMatchObject({
        files: ['.env'],
        FROM: '.env',
      })
    } finally {
      await rm(sparse, { recursive: true, force: true })
    }
  })
})
