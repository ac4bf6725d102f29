import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { missingOptionalEntries, type Lockfile } from '../scripts/check-lockfile'

const committed = async () => JSON.parse(await readFile('package-lock.json', 'utf8')) as Lockfile

describe('the lockfile check', () => {
  it('finds every optional platform package of the committed lockfile', async () => {
    expect(missingOptionalEntries(await committed())).toEqual([])
  })

  it('names a platform binary whose entry was deleted, and the package that wants it', async () => {
    const lock = await committed()
    const next = lock.packages?.['node_modules/next']
    expect(next?.optionalDependencies).toHaveProperty('@next/swc-darwin-arm64')
    delete lock.packages!['node_modules/@next/swc-darwin-arm64']

    expect(missingOptionalEntries(lock)).toEqual([
      {
        dependency: '@next/swc-darwin-arm64',
        range: next!.optionalDependencies!['@next/swc-darwin-arm64'],
        wantedBy: `next@${next!.version}`,
      },
    ])
  })

  it('finds an optional package where Node would: nested first, then each folder up', () => {
    const lock: Lockfile = {
      packages: {
        '': { optionalDependencies: { top: '1' } },
        'node_modules/top': { version: '1.0.0' },
        'node_modules/a': { version: '1.0.0' },
        'node_modules/a/node_modules/b': {
          version: '2.0.0',
          optionalDependencies: { c: '2', d: '2', e: '2' },
        },
        'node_modules/a/node_modules/c': { version: '2.0.0' },
        'node_modules/a/node_modules/b/node_modules/d': { version: '2.0.0' },
        'node_modules/other/node_modules/e': { version: '2.0.0' },
      },
    }
    expect(missingOptionalEntries(lock)).toEqual([
      { dependency: 'e', range: '2', wantedBy: 'b@2.0.0' },
    ])
  })

  it('fails from the command line, naming the package, with no network or install', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'lockfile-'))
    try {
      const lock = await committed()
      delete lock.packages!['node_modules/@next/swc-win32-x64-msvc']
      const file = path.join(dir, 'package-lock.json')
      await writeFile(file, JSON.stringify(lock))
      let failure: { status?: number; stderr?: string } = {}
      try {
        execFileSync(process.execPath, ['scripts/check-lockfile.ts', file], {
          encoding: 'utf8',
          stdio: 'pipe',
        })
      } catch (error) {
        failure = error as typeof failure
      }
      expect(failure.status).toBe(1)
      expect(failure.stderr).toMatch(/@next\/swc-win32-x64-msvc@[\d.]+ \(wanted by next@/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
