import { spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { Readable, Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '@/lib/env'
import { lit } from '@/lib/waitlist/embedded-store'
import { runWaitlistCli } from '@/lib/waitlist/operator/cli'
import { connect, type Database } from '@/lib/waitlist/operator/database'
import { postgresUnavailable, pushedDatabase } from './support/postgres'
import { site } from './support/site-signups'

const unavailable = postgresUnavailable()
if (unavailable) {
  console.warn(
    `PostgreSQL 15 is not running here (${unavailable}): skipping the operator's tests on it; start it with pg_ctlcluster 15 main start`,
  )
}

/** `npm run waitlist -- <command>` in this process; the command's words split at spaces. */
async function cli(command: string, env: Env, stdin = '') {
  const sink = (add: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        add(String(chunk))
        done()
      },
    })
  let [stdout, stderr] = ['', '']
  const code = await runWaitlistCli(command.split(' '), {
    env,
    stdin: Readable.from([stdin]),
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
  })
  return { code, stdout, stderr, said: stderr.trimEnd().split('\n') }
}

/** The store's database, held while `work` runs: meanwhile the embedded one's commands go through this process. */
async function holding<T>(env: Env, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await connect(env)
  return work(db).finally(() => db.close())
}

/** The rows of the last of `statements`, run as the tables' owner. */
const sql = <Row>(env: Env, statements: string) =>
  holding(env, async ({ client }) => {
    const result = await client.query(statements)
    return (Array.isArray(result) ? result.at(-1)! : result).rows as Row[]
  })

const signUp = (env: Env, email: string) =>
  holding(env, async ({ client }) => (await site(client))(email))

const temp = () => mkdtemp(path.join(os.tmpdir(), 'waitlist-'))

type Store = {
  name: string
  skip?: string
  /** The embedded database signs its own inserts from the start; a Supabase project waits for --set. */
  signedAlready: boolean
  open(keep?: (file: string) => boolean): Promise<{ env: Env; drop(): Promise<void> }>
  /** Whether the store can be left recording migrations this code does not have (the embedded one refuses to open). */
  foreignHistory?: boolean
}
const STORES: Store[] = [
  {
    name: 'the embedded store',
    signedAlready: true,
    async open() {
      const dir = await temp()
      const drop = () => rm(dir, { recursive: true, force: true })
      return { env: { WAITLIST_DATA_DIR: path.join(dir, 'data') }, drop }
    },
  },
  {
    name: 'PostgreSQL 15 pushed by the Supabase CLI',
    skip: unavailable,
    signedAlready: false,
    async open(keep) {
      const { url, drop } = await pushedDatabase(keep)
      return { env: { SUPABASE_DB_URL: url }, drop }
    },
    foreignHistory: true,
  },
]

/** Stored in this (id) order, which is not their `created_at` order. */
const ROWS = [
  ['cleo@example.com', 'cta_section', '2024-05-03T09:15:00.000000Z'],
  ['=x@example.com', 'hero_section', '2024-05-01T10:00:00.000000Z'],
  ["'tick@example.com", 'hero_section', '2024-05-02T08:30:00.250000Z'],
  ['anna@example.com', 'hero_section', '2024-05-01T10:00:01.000000Z'],
] as const
const CSV =
  'email,source,created_at\r\n' +
  'cleo@example.com,cta_section,2024-05-03T09:15:00.000000Z\r\n' +
  `"'=x@example.com",hero_section,2024-05-01T10:00:00.000000Z\r\n` +
  `"''tick@example.com",hero_section,2024-05-02T08:30:00.250000Z\r\n` +
  'anna@example.com,hero_section,2024-05-01T10:00:01.000000Z\r\n'
const insert = (rows: readonly (readonly string[])[]) =>
  `insert into public.waitlist (email, source, created_at) values ${rows.map((row) => `(${row.map(lit).join(', ')})`).join(', ')};`
const emails = (json: string) => (JSON.parse(json) as { email: string }[]).map((row) => row.email)
/** What import prints: inserted, skipped as duplicate, skipped as erased, rejected. */
const tally = (...counts: number[]) =>
  ['inserted', 'skipped as duplicate', 'skipped as erased', 'rejected']
    .map((label, i) => `${label.padEnd(20)}  ${counts[i]}\n`)
    .join('')

describe.each(STORES)('$name', (store) => {
  describe.skipIf(store.skip)('the commands', () => {
    let env: Env
    let drop: (() => Promise<void>) | undefined
    let files: string

    beforeAll(async () => {
      ;({ env, drop } = await store.open())
      files = await temp()
    })
    afterAll(async () => {
      await drop?.()
      await rm(files, { recursive: true, force: true })
    })
    beforeEach(async () => {
      const unsign = store.signedAlready
        ? ''
        : 'update waitlist_private.secrets set signing_secret = null, previous_signing_secret = null;'
      const empty = 'delete from public.waitlist; delete from waitlist_private.erasures;'
      await sql(env, `${empty} ${unsign} ${insert(ROWS)}`)
    })

    it('counts the list', async () => {
      const { code, stdout, said } = await cli('count', env)
      expect({ code, stdout }).toEqual({ code: 0, stdout: '4\n' })
      expect(said).toEqual([expect.stringMatching(/^waitlist: count on the /)])
    })

    it('exports CSV and JSON in signup order, guarding formulas, and the CSV imports back as it was', async () => {
      expect(await cli('export', env)).toMatchObject({ code: 0, stdout: CSV })
      const json = await cli('export --format json', env)
      expect(JSON.parse(json.stdout)).toEqual(
        ROWS.map(([email, source, created_at]) => ({ email, source, created_at })),
      )
      await sql(env, 'delete from public.waitlist')
      expect(await cli('import -', env, CSV)).toMatchObject({ code: 0, stdout: tally(4, 0, 0, 0) })
      expect((await cli('export', env)).stdout).toBe(CSV)
    })

    it('writes --output to a new file only, and leaves none when the export fails', async () => {
      const file = path.join(files, 'list.csv')
      expect(await cli(`export --output ${file}`, env)).toMatchObject({ code: 0, stdout: '' })
      expect(await readFile(file, 'utf8')).toBe(CSV)
      const again = await cli(`export --format json --output ${file}`, env)
      expect(again).toMatchObject({ code: 2, stderr: expect.stringMatching(/never writes over/) })
      expect(await readFile(file, 'utf8')).toBe(CSV)
      const failed = path.join(files, 'failed.csv')
      await sql(env, 'alter table public.waitlist rename to waitlist_away')
      try {
        const result = await cli(`export --output ${failed}`, env)
        expect(result.code).toBe(1)
        expect(result.said.at(-1)).toMatch(/^waitlist: .*waitlist.* does not exist/)
      } finally {
        await sql(env, 'alter table public.waitlist_away rename to waitlist')
      }
      expect(existsSync(failed)).toBe(false)
    })

    it('counts per form, zeros included, and per UTC day', async () => {
      const day = (ago: number) =>
        new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10)
      const at = [
        `${day(0)}T00:00:00Z`,
        `${day(2)}T23:59:59Z`,
        `${day(2)}T00:00:00Z`,
        '2020-01-01T12:00:00Z',
      ]
      const rows = at.map((time, i) => [`${i}@example.com`, 'hero_section', time])
      await sql(env, `delete from public.waitlist; ${insert(rows)}`)
      const json = await cli('stats --days 3 --format json', env)
      expect(JSON.parse(json.stdout)).toEqual({
        total: 4,
        by_source: { hero_section: 4, cta_section: 0 },
        first_signup_at: '2020-01-01T12:00:00Z',
        latest_signup_at: `${day(0)}T00:00:00Z`,
        days: [2, 0, 1].map((signups, i) => ({ day: day(2 - i), signups })),
      })
      const table = await cli('stats', env)
      expect(table.stdout).toMatch(/^Signups +4\n {2}hero_section +4\n {2}cta_section +0\n/)
      expect(table.stdout.trimEnd().split('\n').slice(-15)).toEqual([
        'Signups per day (UTC):',
        ...[...Array(14).keys()].map((i) => expect.stringMatching(`^  ${day(13 - i)}  +\\d+$`)),
      ])
    })

    it('removes in any case, remembers each as a keyed hash, and an import skips it until restored', async () => {
      const older = path.join(files, 'older.csv')
      expect((await cli(`export --output ${older}`, env)).code).toBe(0)
      const removed = await cli('remove ANNA@Example.com nobody@example.com', env)
      expect(removed).toMatchObject({
        code: 0,
        stdout: 'removed\tanna@example.com\nnot on the list\tnobody@example.com\n',
      })
      expect(removed.said.at(-1)).toBe('waitlist: removed 1 of 2; each is remembered as erased.')
      // Each, as an HMAC keyed in the database, so that no backup brings either in; no address is kept.
      const [keys] = await sql<{ key: Buffer }>(
        env,
        'select erasure_key as key from waitlist_private.secrets',
      )
      const hashes = ['anna', 'nobody'].map((name) =>
        createHmac('sha256', keys!.key).update(`${name}@example.com`).digest('hex'),
      )
      expect(await sql(env, 'table waitlist_private.erasures order by email_hash')).toEqual(
        hashes.sort().map((email_hash) => ({ email_hash, erased_at: expect.any(Date) })),
      )

      // A file that is no list changes nothing, not even what --restore names.
      await writeFile(path.join(files, 'empty.csv'), '')
      const empty = await cli(`import ${files}/empty.csv --restore anna@example.com`, env)
      expect(empty).toMatchObject({ code: 1, stderr: expect.stringMatching(/the file is empty/) })
      const skipped = await cli(`import ${older}`, env)
      expect(skipped).toMatchObject({ code: 0, stdout: tally(0, 3, 1, 0) })
      expect(skipped.said.at(-1)).toMatch(/1 erased on request were not added back.*--restore/)
      expect((await cli('count', env)).stdout).toBe('3\n')

      const restored = await cli(`import ${older} --restore Anna@example.com`, env)
      expect(restored).toMatchObject({ code: 0, stdout: tally(1, 3, 0, 0) })
      expect((await cli('export', env)).stdout).toContain(ROWS[3].join(','))
      expect(removed.stderr + skipped.stderr + restored.stderr).not.toMatch(/(anna|nobody)@/)
    })

    it('forgets an erasure when the person signs up again on the site', async () => {
      const older = path.join(files, 'older.json')
      expect((await cli(`export --format json --output ${older}`, env)).code).toBe(0)
      expect((await cli('remove cleo@example.com', env)).code).toBe(0)
      await signUp(env, 'cleo@example.com')
      expect(await sql(env, 'select * from waitlist_private.erasures')).toEqual([])
      expect((await cli('remove cleo@example.com', env)).stdout).toBe('removed\tcleo@example.com\n')
      await signUp(env, 'cleo@example.com')
      expect((await cli(`import ${older}`, env)).stdout).toBe(tally(0, 4, 0, 0))
    })

    it('rejects bad rows by their line, exit 3, masking addresses, and skips duplicates in any case', async () => {
      const file = path.join(files, 'mixed.csv')
      const rows = [
        'email,source,created_at',
        'new@example.com,hero_section,2024-06-01T00:00:00Z',
        'anna@@example.com,hero_section,',
        'ben@example.com,footer,',
        'dan@example.com,cta_section,2024-02-30T10:00:00Z',
        'ANNA@EXAMPLE.COM,cta_section,',
        ' New@Example.com ,cta_section,',
      ]
      await writeFile(file, rows.join('\n'))
      const result = await cli(`import ${file}`, env)
      expect(result).toMatchObject({ code: 3, stdout: tally(1, 2, 0, 3) })
      expect(result.said.slice(1)).toEqual([
        'line 3: rejected, not an address the site takes: "an***@example.com"',
        'line 4: rejected, source must be hero_section or cta_section, not "footer"',
        expect.stringMatching(/^line 5: rejected, refused by the table: .*"2024-02-30T10:00:00Z"$/),
      ])
      expect((await cli('count', env)).stdout).toBe('5\n')
      const json = JSON.stringify(
        ['Dup@Example.com', 'dup@example.com'].map((email) => ({ email, source: 'cta_section' })),
      )
      expect(await cli('import -', env, json)).toMatchObject({ code: 0, stdout: tally(1, 1, 0, 0) })
    })

    it('checks the schema: the table on stdout, a warning while no signing secret is set', async () => {
      const { code, stdout, stderr } = await cli('check', env)
      expect(code).toBe(0)
      expect(stdout).toMatch(
        /^Database +the .*\nMigrations +all 1 applied, the newest 20261126120000_waitlist.sql\nSignup limits +in place\nCeiling +600 new signups a minute from everyone together\nSigning secret +(set: only the site adds to the list|not set)\n$/,
      )
      expect(stdout.includes('set: only the site adds')).toBe(store.signedAlready)
      expect(stderr.includes('warning: no signing secret is set')).toBe(!store.signedAlready)
    })

    it.skipIf(!store.foreignHistory)(
      'check names a migration recorded that supabase/migrations does not have, as on a project that applied the history before the baseline',
      async () => {
        await sql(
          env,
          "insert into supabase_migrations.schema_migrations (version, name) values ('20261125140000', 'erasure_sticks')",
        )
        try {
          const { code, said } = await cli('check', env)
          expect(code).toBe(1)
          expect(said.filter((line) => line.includes('20261125140000'))).toEqual([
            expect.stringMatching(
              /^waitlist: .* records migration 20261125140000, which supabase\/migrations does not have/,
            ),
          ])
        } finally {
          await sql(
            env,
            "delete from supabase_migrations.schema_migrations where version = '20261125140000'",
          )
        }
      },
    )

    it.each([
      {
        when: 'the trigger limit_signups is disabled',
        breaks: 'alter table public.waitlist disable trigger limit_signups',
        mends: 'alter table public.waitlist enable trigger limit_signups',
        names: /trigger limit_signups on public.waitlist is missing or disabled/,
      },
      {
        when: 'no migration history is kept',
        breaks: 'alter table supabase_migrations.schema_migrations rename to away',
        mends: 'alter table supabase_migrations.away rename to schema_migrations',
        names: /records no migration as applied/,
      },
    ])('check fails when $when', async ({ breaks, mends, names }) => {
      await holding(env, async ({ client }) => {
        await client.query(breaks)
        try {
          const { code, stdout, said } = await cli('check', env)
          expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
          expect(said.filter((line) => names.test(line))).toEqual([
            expect.stringMatching(/^waitlist: /),
          ])
        } finally {
          await client.query(mends)
        }
      })
      expect((await cli('check', env)).code).toBe(0)
    })

    it('signing-secret --set has the database refuse unsigned inserts; the embedded store keeps its own', async () => {
      const secret = (await cli('signing-secret', env)).stdout.trim()
      const set = await cli('signing-secret --set', { ...env, WAITLIST_SIGNING_SECRET: secret })
      if (store.signedAlready) {
        expect(set.code).toBe(2)
        expect(set.said.at(-1)).toMatch(/^waitlist: the embedded database makes and keeps its own/)
        return
      }
      expect(set.code).toBe(0)
      const check = await cli('check', env)
      expect(check.stdout).toMatch(/\nSigning secret +set: only the site adds to the list\n/)
      expect(check.stderr).not.toMatch(/warning/)
      const unsigned = `set local role anon; insert into public.waitlist (email, source) values ('eve@example.com', 'cta_section')`
      await expect(sql(env, unsigned)).rejects.toMatchObject({
        code: '42501',
        message: expect.stringMatching(/not signed by it/),
      })
      await signUp(env, 'eve@example.com')
      expect((await cli('count', env)).stdout).toBe('5\n')
    })
  })
})

describe('the command line', () => {
  const nowhere = path.join(os.tmpdir(), `waitlist-nowhere-${process.pid}`)
  const env = { WAITLIST_DATA_DIR: nowhere }
  afterAll(() => rm(nowhere, { recursive: true, force: true }))

  it.each([
    [
      'export --fromat json',
      /^export has no option --fromat \(did you mean --format\?\)\. It takes: --format csv\|json, --output FILE\.$/,
    ],
    ['exprot', /^there is no command "exprot" \(did you mean export\?\): count, export, /],
    ['export --format', /^export was given --format without its value\. It takes: --format/],
    ['remove --from list.txt', /^remove has no option --from\. It takes no options\.$/],
    ['remove', /^remove takes the ADDRESS to erase, or - to read them from standard input\.$/],
    ['stats --days 0', /^--days must be a whole number from 1 to 3660, not "0"\.$/],
  ])('%s: exit 2, one line, nothing opened', async (command, says) => {
    const { code, stdout, said } = await cli(command, env)
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' })
    expect(said).toEqual([expect.stringMatching(/^waitlist: /)])
    expect(said[0]!.slice('waitlist: '.length)).toMatch(says)
    expect(existsSync(nowhere)).toBe(false)
  })

  it('names SUPABASE_DB_URL when a Supabase URL is set without it', async () => {
    const { code, said } = await cli('count', { SUPABASE_URL: 'https://abc.supabase.co' })
    expect(code).toBe(2)
    expect(said).toEqual([
      expect.stringMatching(/^waitlist: SUPABASE_URL is set.*set SUPABASE_DB_URL/),
    ])
  })

  it('makes a new signing secret without touching the database', async () => {
    const made = await cli('signing-secret', {
      SUPABASE_DB_URL: 'postgresql://nobody@127.0.0.1:1/x',
    })
    expect(made).toMatchObject({ code: 0, stdout: expect.stringMatching(/^[\w-]{43}\n$/) })
    expect(made.stderr).toMatch(/WAITLIST_SIGNING_SECRET/)
    expect((await cli('signing-secret', env)).stdout).not.toBe(made.stdout)
    expect(existsSync(nowhere)).toBe(false)
  })

  it('says in one line, exit 1, that a data folder cannot be opened', async () => {
    const { code, said } = await cli('count', { WAITLIST_DATA_DIR: `/tmp/${'x'.repeat(120)}` })
    expect(code).toBe(1)
    expect(said).toEqual([expect.stringMatching(/^waitlist: the data folder's path is too long/)])
  })
})

const SITE = '--conditions=react-server --import tsx tests/support/site-signups.ts'

describe('the embedded store while the site owns the folder', () => {
  it('exports, removes and imports between its signups, losing none', async () => {
    const dir = await temp()
    const env = { WAITLIST_DATA_DIR: path.join(dir, 'data') }
    const child = spawn(process.execPath, [...SITE.split(' '), env.WAITLIST_DATA_DIR])
    const printed: string[] = []
    let complaints = ''
    createInterface({ input: child.stdout }).on('line', (line) => printed.push(line))
    child.stderr.on('data', (chunk: Buffer) => (complaints += chunk.toString()))
    const exited = once(child, 'exit')
    const stored = () => printed.filter((line) => /^site-\d+@example\.com$/.test(line))
    const until = async (done: () => boolean) => {
      for (; !done(); await sleep(20))
        if (child.exitCode !== null) throw new Error(`the site stopped: ${printed}${complaints}`)
    }
    const list = async () => emails((await cli('export --format json', env)).stdout)
    const imports = ['imported-1@example.com', 'imported-2@example.com']
    let gone = ''
    try {
      await until(() => printed.includes('ready, owning the folder') && stored().length >= 20)
      const before = stored()
      const exported = await cli('export --format json', env)
      expect(exported).toMatchObject({
        code: 0,
        stderr: expect.stringMatching(/through the server/),
      })
      expect(emails(exported.stdout)).toEqual(expect.arrayContaining(before))

      gone = before[5]!
      expect(await cli(`remove ${gone}`, env)).toMatchObject({
        code: 0,
        stdout: `removed\t${gone}\n`,
      })
      const file = path.join(dir, 'list.json')
      await writeFile(
        file,
        JSON.stringify([...imports, gone].map((email) => ({ email, source: 'hero_section' }))),
      )
      expect(await cli(`import ${file}`, env)).toMatchObject({
        code: 0,
        stdout: tally(2, 0, 1, 0),
      })
      const during = await list()
      expect(during).toEqual(expect.arrayContaining(imports))
      expect(during).not.toContain(gone)

      // The site went on signing people up all the while, and goes on.
      const after = stored().length
      expect(after).toBeGreaterThan(before.length)
      await until(() => stored().length >= after + 10)
    } finally {
      child.kill('SIGTERM')
      await exited
    }
    expect({ status: child.exitCode, complaints, last: printed.at(-1) }).toEqual({
      status: 0,
      complaints: '',
      last: 'errors 0',
    })
    const kept = stored().filter((email) => email !== gone)
    expect((await list()).sort()).toEqual([...kept, ...imports].sort())
    await rm(dir, { recursive: true, force: true })
  }, 60_000)
})
