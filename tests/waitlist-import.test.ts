import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { whileFolderHeld } from './support/folder-holder'
import {
  embeddedOperatorStore,
  operatorStores,
  runCli,
  supabaseOperatorStore,
  type OperatorStore,
} from './support/operator-stores'
import { allowForDatabaseStarts } from './support/timeouts'

allowForDatabaseStarts()

/**
 * `npm run waitlist -- import`, on both stores: restoring a backup, or moving
 * a list from one store to another, with the site's own rules.
 */
const LIST = [
  ['anna@example.com', 'hero_section', '2024-05-01T10:00:00+00:00'],
  ['-dash@example.com', 'cta_section', '2024-05-01T10:00:01.5+00:00'],
  ['+plus@example.com', 'hero_section', '2024-05-01T23:59:59.999999+00:00'],
  ["o'brien@example.com", 'cta_section', '2024-05-02T00:00:00+00:00'],
  ['ben@example.com', 'hero_section', '2024-05-03T08:30:00+00:00'],
] as const

let files: string
beforeEach(async () => {
  files = await mkdtemp(path.join(os.tmpdir(), 'import-files-'))
})
afterEach(() => rm(files, { recursive: true, force: true }))

async function file(name: string, text: string): Promise<string> {
  const where = path.join(files, name)
  await writeFile(where, text)
  return where
}

describe.each(operatorStores)('import, on %s', (_name, open) => {
  let subject: OperatorStore
  const cli = (argv: string[]) => runCli(argv, subject.env, { importBatchSize: 2 })

  beforeEach(async () => {
    subject = await open()
  })
  afterEach(() => subject.close())

  it.each(['csv', 'json'])(
    'gives back the same list after export, remove all, import, export (%s)',
    async (format) => {
      await subject.seed(LIST)
      const first = await cli(['export', '--format', format])
      expect(first.code).toBe(0)
      const backup = await file(`backup.${format}`, first.stdout)

      const everyone = await file('everyone.txt', LIST.map(([email]) => email).join('\n'))
      expect((await cli(['remove', '--from', everyone])).code).toBe(0)
      expect(await subject.rows()).toEqual([])

      const restored = await cli(['import', backup])
      expect(restored).toMatchObject({
        code: 0,
        stdout: 'inserted              5\nskipped as duplicate  0\nrejected              0\n',
      })
      expect((await cli(['export', '--format', format])).stdout).toBe(first.stdout)

      // Once more: everything is already there.
      expect((await cli(['import', backup])).stdout).toBe(
        'inserted              0\nskipped as duplicate  5\nrejected              0\n',
      )
      expect((await cli(['export', '--format', format])).stdout).toBe(first.stdout)
    },
  )

  it('imports a hand-made CSV: bad rows by line, duplicates in any case, guards off, CRLF and a BOM', async () => {
    await subject.seed([['anna@example.com', 'hero_section', '2024-01-01T00:00:00+00:00']])
    const csv = await file(
      'hand-made.csv',
      '\uFEFFemail,source,created_at\r\n' +
        'ANNA@example.com,cta_section,2024-06-01T00:00:00+00:00\r\n' +
        `"'-dash@example.com",cta_section,2024-05-01T10:00:01+00:00\r\n` +
        `"'+plus@example.com",hero_section,\r\n` +
        'not-an-address,hero_section,\r\n' +
        '-DASH@Example.com,hero_section,2024-07-01T00:00:00+00:00\r\n' +
        'cleo@example.com,footer,\r\n' +
        'dora@example.com,hero_section,2024-05-01 12:00:00+02\r\n',
    )
    const started = Date.now()
    const result = await cli(['import', csv])
    const finished = Date.now()
    expect(result.code).toBe(3)
    expect(result.stdout).toBe(
      'inserted              3\nskipped as duplicate  2\nrejected              2\n',
    )
    expect(result.stderr).toContain(
      'line 5: rejected, not a valid e-mail address: not-an-address\n',
    )
    expect(result.stderr).toContain(
      'line 7: rejected, unknown source "footer" (expected hero_section or cta_section)\n',
    )
    const rows = await subject.rows()
    expect(rows.map(({ email, source }) => [email, source])).toEqual([
      ['anna@example.com', 'hero_section'],
      ['-dash@example.com', 'cta_section'],
      ['+plus@example.com', 'hero_section'],
      ['dora@example.com', 'hero_section'],
    ])
    // created_at kept when given (and read with its offset), the time of the import when not.
    expect(rows[0]!.created_at).toBe('2024-01-01T00:00:00+00:00')
    expect(rows[1]!.created_at).toBe('2024-05-01T10:00:01+00:00')
    const importedAt = Date.parse(rows[2]!.created_at)
    expect(importedAt).toBeGreaterThanOrEqual(started)
    expect(importedAt).toBeLessThanOrEqual(finished)
    expect(rows[3]!.created_at).toBe('2024-05-01T10:00:00+00:00')
  })

  it('imports JSON, naming a bad entry by the line it starts on', async () => {
    const json = await file(
      'list.json',
      '[\n  {"email": "a@example.com", "source": "hero_section"},\n' +
        '  {"email": "b@example.com", "source": "hero"},\n' +
        '  {"email": "c@example.com", "source": "cta_section", "created_at": "2024-05-01T10:00:00Z"}\n]\n',
    )
    const result = await cli(['import', json])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('line 3: rejected, unknown source "hero"')
    expect((await subject.rows()).map((row) => row.email)).toEqual([
      'a@example.com',
      'c@example.com',
    ])
  })

  it('stops at a file that is not a list, before changing anything', async () => {
    const result = await cli(['import', await file('notes.csv', 'name,phone\nann,123\n')])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/line 1: the first line must name the columns/)
    expect(await subject.rows()).toEqual([])
  })
})

describe('import, on the embedded database', () => {
  let subject: OperatorStore
  beforeEach(async () => {
    subject = await embeddedOperatorStore()
  })
  afterEach(() => subject.close())

  it('refuses while a server holds the folder, naming it', async () => {
    const csv = await file('one.csv', 'email,source\nann@example.com,hero_section\n')
    await whileFolderHeld(subject.env.WAITLIST_DATA_DIR!, async (server) => {
      const result = await runCli(['import', csv], subject.env)
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(new RegExp(`in use by .*process ${server.pid} on this machine`))
    })
    expect(await subject.rows()).toEqual([])
  })

  it('restores into a folder that does not exist yet, as on a new machine', async () => {
    const csv = await file('one.csv', 'email,source\nann@example.com,hero_section\n')
    const fresh = { WAITLIST_DATA_DIR: path.join(files, 'new-machine', 'data') }
    expect((await runCli(['import', csv], fresh)).code).toBe(0)
    expect((await runCli(['count'], fresh)).stdout).toBe('1\n')
  })
})

describe('import, on Supabase', () => {
  it('sends one request per batch, to the import function', async () => {
    const subject = await supabaseOperatorStore()
    try {
      const lines = Array.from({ length: 5 }, (_, i) => `p${i}@example.com,hero_section`)
      const csv = await file('five.csv', ['email,source', ...lines].join('\n'))
      await runCli(['import', csv], subject.env, { importBatchSize: 2 })
      expect(subject.harness.requests.map((r) => `${r.method} ${r.url}`)).toEqual(
        Array(3).fill('POST /rest/v1/rpc/waitlist_import'),
      )
      expect(await subject.rows()).toHaveLength(5)
    } finally {
      await subject.close()
    }
  })
})
