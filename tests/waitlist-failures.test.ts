import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable, Writable } from 'node:stream'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXIT, runWaitlistCli } from '@/lib/waitlist/operator/cli'
import { startSupabaseHarness, type SupabaseHarness } from './harness/postgrest'
import { whileFolderHeld } from './support/folder-holder'
import {
  embeddedOperatorStore,
  runCli,
  supabaseOperatorStore,
  type CliRun,
  type OperatorStore,
} from './support/operator-stores'
import { sink } from './support/sink'
import { allowForDatabaseStarts } from './support/timeouts'

allowForDatabaseStarts()

/**
 * Every way a command can be given wrong, or meet a store or a file it
 * cannot use, as a newcomer would meet them: one line on stderr, no stack,
 * and the exit status the usage text documents. Usage mistakes and files
 * that cannot be used are found before any store is touched.
 */
const LIST = [
  ['anna@example.com', 'hero_section', '2024-05-01T10:00:00+00:00'],
  ['ben@example.com', 'cta_section', '2024-05-02T10:00:00+00:00'],
] as const

/**
 * The answer in one line, starting with `waitlist:`, and nothing like a stack trace. `alone`:
 * the only line, as it is for whatever is found before the store is opened.
 */
function expectOneLine(result: CliRun, code: number, says: RegExp | string, alone = true) {
  expect(result.code).toBe(code)
  if (alone) expect(result.stderr).toMatch(/^[^\n]+\n$/)
  const last = result.stderr.trimEnd().split('\n').at(-1)!
  expect(last.startsWith('waitlist: ')).toBe(true)
  if (typeof says === 'string') expect(last).toBe(`waitlist: ${says}`)
  else expect(last).toMatch(says)
  expect(result.stderr).not.toMatch(/^\s+at /m)
}

let files: string
let supabase: OperatorStore & { harness: SupabaseHarness }
beforeAll(async () => {
  files = await mkdtemp(path.join(os.tmpdir(), 'waitlist-failures-'))
  supabase = await supabaseOperatorStore()
  await supabase.seed(LIST)
})
afterAll(async () => {
  await supabase.close()
  await rm(files, { recursive: true, force: true })
})

describe('a mistake on the command line: exit 2, before any store is asked', () => {
  it.each([
    [[], 'Name a command: count, export, stats, remove, import, check or help.'],
    [['frobnicate'], 'Unknown command: frobnicate'],
    [['count', 'extra'], 'Unexpected argument: extra'],
    [['count', '--bogus'], /Unknown option '--bogus'/],
    [['export', '--format', 'xml'], '--format must be csv or json, not "xml".'],
    [['export', '--output'], /Option '-o, --output <value>' argument missing/],
    [['stats', '--days', '0'], '--days must be a whole number from 1 to 3660, not "0".'],
    [['stats', '--format', 'csv'], '--format must be table or json, not "csv".'],
    [['remove'], /remove needs the addresses/],
    [['import'], 'import needs exactly one FILE (or - for standard input).'],
    [['import', 'a.csv', 'b.csv'], 'import needs exactly one FILE (or - for standard input).'],
    [['import', 'a.csv', '--format', 'xml'], '--format must be csv or json, not "xml".'],
    [['check', 'extra'], 'Unexpected argument: extra'],
    [['check', '--days', '3'], /Unknown option '--days'/],
  ])('%j', async (argv, says) => {
    const result = await runCli(argv as string[], supabase.env)
    const pattern =
      typeof says === 'string'
        ? `${says} (npm run waitlist -- help lists the commands and options)`
        : says
    expectOneLine(result, EXIT.usage, pattern)
    expect(result.stdout).toBe('')
    expect(supabase.harness.requests).toHaveLength(0)
  })

  it('prints the usage on stdout, exit 0, only when asked for it', async () => {
    for (const argv of [['help'], ['--help'], ['-h']]) {
      const result = await runCli(argv, supabase.env)
      expect(result).toMatchObject({ code: EXIT.done, stderr: '' })
      expect(result.stdout).toMatch(/^Usage:\n/)
      expect(result.stdout).toContain('Exit status: 0 done; 1 the store')
    }
  })
})

describe('a file named on the command line that cannot be used: exit 2, the list unread', () => {
  let existing: string
  let aFile: string
  beforeAll(async () => {
    existing = path.join(files, 'earlier.csv')
    await writeFile(existing, 'an earlier export\n')
    aFile = path.join(files, 'plain-file')
    await writeFile(aFile, '')
    await mkdir(path.join(files, 'a-folder'))
  })

  const cases: [string, () => string[], RegExp][] = [
    [
      'export over an existing file',
      () => ['export', '--output', existing],
      /earlier\.csv already exists, and export never writes over a file: name a new one\.$/,
    ],
    [
      'export into a folder that does not exist',
      () => ['export', '--output', path.join(files, 'no-such-folder', 'list.csv')],
      /There is no folder .*no-such-folder to write list\.csv in: make it first, or name another\.$/,
    ],
    [
      'export into a path under a file',
      () => ['export', '--output', path.join(aFile, 'list.csv')],
      /There is no folder .*plain-file to write list\.csv in/,
    ],
    [
      'export onto a folder',
      () => ['export', '--format', 'json', '--output', path.join(files, 'a-folder')],
      /a-folder is a folder: name a file in it, such as .*a-folder\/waitlist\.csv\.$/,
    ],
    [
      'import of a file that does not exist',
      () => ['import', path.join(files, 'missing.csv')],
      /missing\.csv does not exist\.$/,
    ],
    [
      'import of a folder',
      () => ['import', path.join(files, 'a-folder')],
      /a-folder is a folder, not a file\.$/,
    ],
    [
      'remove --from a file that does not exist',
      () => ['remove', '--from', path.join(files, 'requests.txt')],
      /requests\.txt does not exist\.$/,
    ],
  ]

  it.each(cases)('%s', async (_what, argv, says) => {
    const before = await readdir(files)
    const result = await runCli(argv(), supabase.env)
    expectOneLine(result, EXIT.usage, says)
    expect(result.stdout).toBe('')
    expect(supabase.harness.requests).toHaveLength(0)
    expect(await readdir(files)).toEqual(before)
    expect(await readFile(existing, 'utf8')).toBe('an earlier export\n')
  })
})

describe('a store that cannot be used: exit 1, one line', () => {
  it.each([
    [
      'a Supabase URL without a key',
      { SUPABASE_URL: 'https://abc.supabase.co' },
      /SUPABASE_SERVICE_ROLE_KEY or SUPABASE_SECRET_KEY/,
    ],
    [
      'a key without a URL',
      { SUPABASE_SERVICE_ROLE_KEY: 'service-key' },
      /SUPABASE_SERVICE_ROLE_KEY is set but no Supabase URL/,
    ],
    [
      'a malformed URL',
      { SUPABASE_URL: 'abc.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'k' },
      'SUPABASE_URL is not an http(s) URL: "abc.supabase.co".',
    ],
    ['an in-memory list', { WAITLIST_DATA_DIR: 'memory://' }, /WAITLIST_DATA_DIR is memory:\/\//],
    [
      'a folder with no database',
      { WAITLIST_DATA_DIR: path.join(os.tmpdir(), 'no-database-here') },
      /There is no embedded database at .*no-database-here/,
    ],
  ] as [string, Record<string, string>, RegExp | string][])('%s', async (_what, env, says) => {
    for (const argv of [['count'], ['export'], ['stats'], ['remove', 'a@x.io']]) {
      expectOneLine(await runCli(argv, env), EXIT.failed, says)
    }
  })

  it('a Supabase that does not answer', async () => {
    const closed = await startSupabaseHarness()
    const env = { SUPABASE_URL: closed.url, SUPABASE_SERVICE_ROLE_KEY: closed.serviceRoleKey }
    await closed.close()
    // supabase-js tries a refused connection again for a few seconds: two commands are enough.
    for (const argv of [['count'], ['remove', '--dry-run', 'a@x.io']]) {
      expectOneLine(await runCli(argv, env), EXIT.failed, /Could not reach Supabase to /, false)
    }
  })

  it('a Supabase that refuses part way through an export: the file is not left behind', async () => {
    const output = path.join(files, 'refused.csv')
    supabase.harness.setFault({
      kind: 'answer',
      status: 401,
      body: JSON.stringify({ message: 'Invalid API key' }),
    })
    try {
      const result = await runCli(['export', '--output', output], supabase.env)
      expectOneLine(result, EXIT.failed, /Supabase refused to read the list \(HTTP 401/, false)
    } finally {
      supabase.harness.setFault(undefined)
      supabase.harness.requests.splice(0)
    }
    await expect(readFile(output)).rejects.toThrow(/ENOENT/)
  })
})

describe('an output that fails while the export is written: exit 1, one line', () => {
  it('says so, for a full disk behind standard output', async () => {
    const stderr = sink()
    const full = new Writable({
      write: (_chunk, _encoding, done) =>
        done(
          Object.assign(new Error('ENOSPC: no space left on device, write'), {
            code: 'ENOSPC',
            syscall: 'write',
          }),
        ),
    })
    full.on('error', () => {})
    const code = await runWaitlistCli(['export'], {
      env: supabase.env,
      stdin: Readable.from([]),
      stdout: full,
      stderr: stderr.stream,
    })
    supabase.harness.requests.splice(0)
    expectOneLine(
      { code, stdout: '', stderr: stderr.text() },
      EXIT.failed,
      'Could not write the export: ENOSPC: no space left on device, write',
      false,
    )
  })
})

describe('remove --dry-run changes nothing, so it reads a copy', () => {
  let subject: OperatorStore
  beforeAll(async () => {
    subject = await embeddedOperatorStore()
    await subject.seed(LIST)
  })
  afterAll(() => subject.close())

  it('answers while a server holds the folder, where remove itself is refused', async () => {
    await whileFolderHeld(subject.env.WAITLIST_DATA_DIR!, async () => {
      const dry = await runCli(['remove', '--dry-run', 'ANNA@example.com', 'x@x.io'], subject.env)
      expect(dry).toMatchObject({
        code: EXIT.done,
        stdout: 'would be removed  anna@example.com\nnot on the list   x@x.io\n',
      })
      expect(dry.stderr).toMatch(/read from a copy; .*process \d+ .* holds it/)
      expect(dry.stderr).toContain('1 of 2 on the list; nothing was removed (--dry-run).')
      const real = await runCli(['remove', 'anna@example.com'], subject.env)
      expectOneLine(real, EXIT.failed, /in use by .*process/, false)
    })
    expect((await subject.rows()).map((row) => row.email)).toEqual(LIST.map(([email]) => email))
  })
})

describe('as `npm run waitlist` runs it', () => {
  const npmRun = (args: string[], shell = '') =>
    promisify(execFile)('sh', ['-c', `npm run -s waitlist -- ${args.join(' ')} ${shell}`], {
      env: { ...process.env, ...supabase.env, WAITLIST_DATA_DIR: '' },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )

  it('exits 2 with one line when no command is named', async () => {
    const result = await npmRun([])
    expectOneLine(result, EXIT.usage, /^waitlist: Name a command/)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('exits 1 with one line when standard output is a full disk', async () => {
    const result = await npmRun(['export'], '> /dev/full')
    expectOneLine(result, EXIT.failed, /no space left on device/i, false)
  })
})
