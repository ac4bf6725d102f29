import { spawn, spawnSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtempDisposable, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import tls from 'node:tls'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '@/lib/env'
import { lit } from '@/lib/waitlist/embedded-store'
import { WAITLIST_SOURCES } from '@/lib/waitlist/form-contract'
import { readMigrations } from '@/lib/waitlist/migrations'
import { connect, type Database } from '@/lib/waitlist/operator/database'
import { chooseStores, type StoreKind } from '@/lib/waitlist/operator/stores'
import { cli } from './support/cli'
import { postgresUnavailable, pushedDatabase, superuser } from './support/postgres'
import { cliProcess, runProcess, which } from './support/processes'
import { selfSignedCertificate } from './support/self-signed'
import { site, siteFolder } from './support/site-signups'

const unavailable = postgresUnavailable()

/** The list's database, held while `work` runs: meanwhile the embedded one's commands go through this process. */
async function holding<T>(
  env: Env,
  work: (db: Database) => Promise<T>,
  list?: StoreKind,
): Promise<T> {
  const db = await connect(chooseStores(env, list))
  return work(db).finally(() => db.close())
}

/** The rows of the last of `statements`, run as the tables' owner. */
const sql = <Row>(env: Env, statements: string, list?: StoreKind) =>
  holding(
    env,
    async ({ client }) => {
      const result = await client.query(statements)
      return (Array.isArray(result) ? result.at(-1)! : result).rows as Row[]
    },
    list,
  )

const temp = () => mkdtempDisposable(path.join(os.tmpdir(), 'waitlist-'))

/** How the commands name a database that no Supabase project ref names: its database, host and port. */
const named = (url: string) => {
  const { pathname, hostname, port } = new URL(url)
  return `the Supabase database ${pathname.slice(1)} at ${hostname}:${port}`
}

/** The site's settings on an operator's machine that reaches the project's own database: a local Supabase's URL names no project. */
const SITE_ON_SUPABASE = {
  SUPABASE_URL: 'http://127.0.0.1:54321',
  SUPABASE_ANON_KEY: 'sb_publishable_local',
}

type Store = {
  name: string
  skip?: string
  /** The embedded database signs its own inserts from the start; a Supabase project waits for --set. */
  signedAlready: boolean
  /** The store's environment, and its list as every result names it. */
  open(): Promise<{ env: Env; list: string; drop(): Promise<void> }>
  /** What a changing command adds to say the list is the site's: nothing proves a local database is. */
  confirm: string
}
const STORES: Store[] = [
  {
    name: 'the embedded store',
    signedAlready: true,
    async open() {
      const dir = await temp()
      const data = await siteFolder(path.join(dir.path, 'data'))
      return {
        env: { WAITLIST_DATA_DIR: data },
        list: `the embedded database in ${data}`,
        drop: () => dir.remove(),
      }
    },
    confirm: '',
  },
  {
    name: 'PostgreSQL 15 pushed by the Supabase CLI',
    skip: unavailable,
    signedAlready: false,
    async open() {
      const { url, drop } = await pushedDatabase()
      const list = named(url)
      return { env: { SUPABASE_DB_URL: url, ...SITE_ON_SUPABASE }, list, drop }
    },
    confirm: ' --project local',
  },
]

/** Stored in this (id) order, which is not their `created_at` order. */
const ROWS = [
  ['cleo@example.com', 'cta_section', '2024-05-03T09:15:00.000000Z'],
  ['=x@example.com', 'hero_section', '2024-05-01T10:00:00.000000Z'],
  ["'tick@example.com", 'hero_section', '2024-05-02T08:30:00.250000Z'],
  ['anna@example.com', 'hero_section', '2024-05-01T10:00:01.000000Z'],
] as const
/** The export of ROWS: in signup order, `created_at`'s. */
const CSV =
  'email,source,created_at\r\n' +
  `"'=x@example.com",hero_section,2024-05-01T10:00:00.000000Z\r\n` +
  'anna@example.com,hero_section,2024-05-01T10:00:01.000000Z\r\n' +
  `"''tick@example.com",hero_section,2024-05-02T08:30:00.250000Z\r\n` +
  'cleo@example.com,cta_section,2024-05-03T09:15:00.000000Z\r\n'
const insert = (rows: readonly (readonly string[])[]) =>
  `insert into public.waitlist (email, source, created_at) values ${rows.map((row) => `(${row.map(lit).join(', ')})`).join(', ')};`
const emails = (json: string) => (JSON.parse(json) as { email: string }[]).map((row) => row.email)
/** What import prints: the list, then inserted, skipped as duplicate, skipped as erased, rejected. */
const tally = (list: string, ...counts: number[]) =>
  `${'list'.padEnd(20)}  ${list}\n` +
  ['inserted', 'skipped as duplicate', 'skipped as erased', 'rejected']
    .map((label, i) => `${label.padEnd(20)}  ${counts[i]}\n`)
    .join('')
const noneFrom = (sources: readonly string[]) =>
  Object.fromEntries(sources.map((source) => [source, 0]))
const counted = (n: number, list: string) => `${n} signup${n === 1 ? '' : 's'} on ${list}\n`

describe.each(STORES)('$name', (store) => {
  describe.skipIf(store.skip)('the commands', () => {
    let env: Env
    let list: string
    let drop: (() => Promise<void>) | undefined
    let files: string

    beforeAll(async () => {
      ;({ env, list, drop } = await store.open())
      files = (await temp()).path
    })
    afterAll(async () => {
      await drop?.()
      await rm(files, { recursive: true, force: true })
    })
    beforeEach(async () => {
      const unsign = store.signedAlready
        ? ''
        : 'update waitlist_private.secrets set signing_secret = null, previous_signing_secret = null;'
      const empty = `delete from public.waitlist; delete from waitlist_private.erasures;
        update waitlist_private.secrets set signed_at = null;`
      await sql(env, `${empty} ${unsign} ${insert(ROWS)}`)
    })

    it('counts the list, naming it', async () => {
      expect(await cli('count', env)).toMatchObject({
        code: 0,
        stdout: counted(4, list),
        said: store.confirm
          ? [
              `waitlist: count on ${list}`,
              "waitlist: note: this may not be the list the site writes to, as the site's URL names no project (a custom domain?), nor does its key.",
            ]
          : [`waitlist: count on ${list}, the site's list`],
      })
    })

    it('exports CSV and JSON in signup order, guarding formulas', async () => {
      expect(await cli('export', env)).toMatchObject({ code: 0, stdout: CSV })
      const json = await cli('export --format json', env)
      expect(JSON.parse(json.stdout)).toEqual(
        [1, 3, 2, 0]
          .map((i) => ROWS[i]!)
          .map(([email, source, created_at]) => ({ email, source, created_at })),
      )
      expect(json.said.at(-1)).toBe(`waitlist: exported 4 signups from ${list}`)
    })

    it('writes --output to a new file its owner alone can read, - to stdout, and leaves none when the export fails', async () => {
      const file = path.join(files, 'list.csv')
      const written = await cli(`export --output ${file}`, env)
      expect(written).toMatchObject({ code: 0, stdout: '' })
      expect(written.said.at(-1)).toBe(`waitlist: wrote ${file}, 4 signups from ${list}`)
      expect(await readFile(file, 'utf8')).toBe(CSV)
      expect((await stat(file)).mode & 0o777).toBe(0o600)

      expect(await cli('export --output -', env)).toMatchObject({ code: 0, stdout: CSV })
      expect(existsSync('-')).toBe(false)

      const failed = path.join(files, 'failed.csv')
      await sql(env, 'alter table public.waitlist rename column email to address')
      try {
        const result = await cli(`export --output ${failed}`, env)
        expect(result.code).toBe(1)
        expect(result.said.at(-1)).toMatch(/^waitlist: column "email" does not exist/)
      } finally {
        await sql(env, 'alter table public.waitlist rename column address to email')
      }
      expect(existsSync(failed)).toBe(false)
    })

    it('counts per form, zeros included, and per UTC day, naming the list', async () => {
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
        list,
        total: 4,
        held_back: 0,
        by_source: { ...noneFrom(WAITLIST_SOURCES), hero_section: 4 },
        first_signup_at: '2020-01-01T12:00:00Z',
        latest_signup_at: `${day(0)}T00:00:00Z`,
        days: [2, 0, 1].map((signups, i) => ({ day: day(2 - i), signups })),
      })
      const table = await cli('stats', env)
      const head = table.stdout.split('\n').slice(0, 2 + WAITLIST_SOURCES.length)
      expect(head.map((line) => line.trim().split(/ {2,}/))).toEqual([
        ['List', list],
        ['Signups', '4'],
        ...WAITLIST_SOURCES.map((source) => [source, source === 'hero_section' ? '4' : '0']),
      ])
      expect(table.stdout.trimEnd().split('\n').slice(-15)).toEqual([
        'Signups per day (UTC):',
        ...[...Array(14).keys()].map((i) => expect.stringMatching(`^  ${day(13 - i)}  +\\d+$`)),
      ])
    })

    // Its imports of an export also prove the formula guard taken off, and created_at kept.
    it('removes in any case, named or read from stdin, says from which list, remembers each as a keyed hash, and an import skips it until restored', async () => {
      const older = path.join(files, 'older.csv')
      expect((await cli(`export --output ${older}`, env)).code).toBe(0)
      const removed = await cli(
        `remove ANNA@Example.com -${store.confirm}`,
        env,
        'nobody@example.com\r\n\n',
      )
      expect(removed).toMatchObject({
        code: 0,
        stdout:
          'removed\tanna@example.com\n' +
          'not on the list; recorded as erased so it is never added again\tnobody@example.com\n' +
          `removed 1 of 2 from ${list}; each is remembered as erased there.\n`,
      })
      // Each, as an HMAC keyed in the database, so that no backup brings either in; no address is kept.
      const [keys] = await sql<{ key: Buffer }>(
        env,
        'select erasure_key as key from waitlist_private.secrets',
      )
      const hashes = ['anna', 'nobody'].map((name) =>
        createHmac('sha256', keys!.key).update(`${name}@example.com`).digest('hex'),
      )
      expect(
        await sql(env, 'select email_hash, erased_at from waitlist_private.erasures order by 1'),
      ).toEqual(hashes.sort().map((email_hash) => ({ email_hash, erased_at: expect.any(Date) })))

      // A file that is no list changes nothing, not even what --restore names.
      await writeFile(path.join(files, 'empty.csv'), '')
      const empty = await cli(
        `import ${files}/empty.csv --restore anna@example.com${store.confirm}`,
        env,
      )
      expect(empty).toMatchObject({ code: 1, stderr: expect.stringMatching(/the file is empty/) })
      const skipped = await cli(`import ${older}${store.confirm}`, env)
      expect(skipped).toMatchObject({ code: 0, stdout: tally(list, 0, 3, 1, 0) })
      expect(skipped.said.at(-1)).toMatch(/1 erased on request were not added back.*--restore/)
      expect((await cli('count', env)).stdout).toBe(counted(3, list))

      const restored = await cli(
        `import ${older} --restore Anna@example.com --restore nobody@example.com${store.confirm}`,
        env,
      )
      expect(restored).toMatchObject({ code: 0, stdout: tally(list, 1, 3, 0, 0) })
      expect(restored.said).toContain(
        'waitlist: warning: --restore no***@example.com is not in the file: nothing restored for it.',
      )
      expect((await cli('export', env)).stdout).toContain(ROWS[3].join(','))
      expect(removed.stderr + skipped.stderr + restored.stderr).not.toMatch(/(anna|nobody)@/)
    })

    it('keeps an erasure when the address is signed up again on the site, and counts it held back', async () => {
      if (!store.signedAlready)
        await sql(env, `update waitlist_private.secrets set signing_secret = '${'s'.repeat(32)}'`)
      expect((await cli(`remove cleo@example.com${store.confirm}`, env)).code).toBe(0)
      await holding(env, async ({ client }) => (await site(client))('cleo@example.com'))
      expect((await cli('count', env)).stdout).toBe(counted(3, list))
      expect((await cli('stats', env)).stdout).toMatch(
        /\nHeld back +1 \(erased on request, then signed up again\)\n/,
      )
      expect((await cli('check', env)).stdout).toMatch(
        /\nHeld back +1 erased on request, then signed up again\n/,
      )
    })

    it('a backup --with-erasures restores the list and its erasure marks into a fresh project, where an older list adds no erased address', async () => {
      const older = path.join(files, 'before-erasure.csv')
      const backup = path.join(files, 'backup.json')
      expect((await cli(`export --output ${older}`, env)).code).toBe(0)
      expect((await cli(`remove anna@example.com${store.confirm}`, env)).code).toBe(0)
      const exported = await cli(`export --with-erasures --output ${backup}`, env)
      expect(exported.said.at(-1)).toBe(
        `waitlist: wrote ${backup}, 3 signups and 1 erasure mark from ${list}`,
      )
      expect((await stat(backup)).mode & 0o777).toBe(0o600)

      const fresh = await store.open()
      try {
        const restored = await cli(`import --with-erasures ${backup}${store.confirm}`, fresh.env)
        expect(restored).toMatchObject({ code: 0, stdout: tally(fresh.list, 3, 0, 0, 0) })
        expect(restored.said).toContain('waitlist: 1 erasure marks taken from the backup.')
        const again = await cli(`import ${older}${store.confirm}`, fresh.env)
        expect(again).toMatchObject({ code: 0, stdout: tally(fresh.list, 0, 3, 1, 0) })
        expect((await cli('export', fresh.env)).stdout).not.toContain('anna@')
      } finally {
        await fresh.drop()
      }
      // A project with marks of its own under another key would lose them: refused, nothing changed.
      await sql(
        env,
        'update waitlist_private.secrets set erasure_key = extensions.gen_random_bytes(32)',
      )
      const mixed = await cli(`import --with-erasures ${backup}${store.confirm}`, env)
      expect(mixed).toMatchObject({ code: 2, stdout: '' })
      expect(mixed.said.at(-1)).toMatch(/has erasure marks of its own, under another key/)
    }, 120_000)

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
      const result = await cli(`import ${file}${store.confirm}`, env)
      expect(result).toMatchObject({ code: 3, stdout: tally(list, 1, 2, 0, 3) })
      expect(result.said.slice(1)).toEqual([
        'waitlist: line 3: rejected, not an address the site takes: "an***@example.com"',
        `waitlist: line 4: rejected, source must be ${WAITLIST_SOURCES.join(' or ')}, not "footer"`,
        expect.stringMatching(
          /^waitlist: line 5: rejected, refused by the table: .*"2024-02-30T10:00:00Z"$/,
        ),
      ])
      expect((await cli('count', env)).stdout).toBe(counted(5, list))
      const json = JSON.stringify(
        ['Dup@Example.com', 'dup@example.com'].map((email) => ({ email, source: 'cta_section' })),
      )
      expect(await cli(`import -${store.confirm}`, env, json)).toMatchObject({
        code: 0,
        stdout: tally(list, 1, 1, 0, 0),
      })
    })

    it('checks the schema and says where the site writes: the table on stdout, a warning while no signing secret is set', async () => {
      const { code, stdout, stderr } = await cli('check', env)
      expect(code).toBe(0)
      const site = store.signedAlready ? list : 'Supabase at 127.0.0.1:54321 (SUPABASE_ANON_KEY)'
      const psql = store.signedAlready
        ? ['psql            nothing holds the folder now \\(this command opened it\\)']
        : []
      const migrations = await readMigrations()
      expect(stdout.split('\n')).toEqual([
        `Database        ${list}`,
        `Site writes to  ${site}`,
        ...psql.map((line) => expect.stringMatching(line)),
        `Migrations      all ${migrations.length} applied, the newest ${migrations.at(-1)!.file}`,
        'Signup limits   in place',
        'Ceiling         600 new signups a minute from everyone together',
        ...(store.signedAlready
          ? ['Signing secret  set: only the site adds to the list', 'Last signed     never']
          : ['Signing secret  not set: signups are closed until it is']),
        'Held back       0 erased on request, then signed up again',
        '',
      ])
      expect(stderr.includes('warning: no signing secret is set, so signups are closed')).toBe(
        !store.signedAlready,
      )
      const ceiling = async (perMinute: string) => {
        await sql(
          env,
          `update waitlist_private.signup_limits set signups_per_minute = ${perMinute}`,
        )
        return (await cli('check', env)).stdout.match(/\nCeiling +(.*)\n/)?.[1]
      }
      expect(await ceiling('0')).toBe('closed: no signup is taken (0)')
      expect(await ceiling('null')).toBe('none: no limit on signups from everyone together (null)')
      await ceiling('600')
    })

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
      {
        when: 'the database applied an earlier text of a migration',
        breaks: `update supabase_migrations.schema_migrations set statements = array_append(statements, 'select 1')`,
        mends:
          'update supabase_migrations.schema_migrations set statements = trim_array(statements, 1)',
        names: /applied an earlier text of supabase\/migrations\/20261126120000_waitlist\.sql/,
      },
      {
        when: 'it records a migration supabase/migrations does not have, as a project that applied the history before the baseline does',
        breaks:
          "insert into supabase_migrations.schema_migrations (version, name) values ('20261125140000', 'erasure_sticks')",
        mends: "delete from supabase_migrations.schema_migrations where version = '20261125140000'",
        names: /records migration 20261125140000, which supabase\/migrations does not have/,
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

    it('signing-secret --set gives the database the secret, and set again changes nothing; the embedded store keeps its own', async () => {
      const set = () =>
        cli(`signing-secret --set${store.confirm}`, {
          ...env,
          WAITLIST_SIGNING_SECRET: 'y'.repeat(43),
        })
      const first = await set()
      if (store.signedAlready) {
        expect(first.code).toBe(2)
        expect(first.said.at(-1)).toMatch(
          /^waitlist: the embedded database makes and keeps its own/,
        )
        return
      }
      expect(first.code).toBe(0)
      expect(first.said.at(-1)).toMatch(/^waitlist: the database now refuses/)
      const again = await set()
      expect(again).toMatchObject({ code: 0, stdout: '' })
      expect(again.said.at(-1)).toBe('waitlist: this secret is already set; nothing changed.')
    })
  })
})

describe.skipIf(unavailable)(
  'two lists: the site on the embedded database, SUPABASE_DB_URL on another that no project ref names',
  () => {
    let env: Env
    let host: string
    let dir: string
    let drop: (() => Promise<void>) | undefined
    const lists = () => [host, `the embedded database in ${dir}`]
    const on = async (list: StoreKind) =>
      (await sql<{ email: string }>(env, 'select email from public.waitlist', list)).map(
        (row) => row.email,
      )

    beforeAll(async () => {
      const pushed = await pushedDatabase()
      drop = pushed.drop
      host = named(pushed.url)
      dir = await siteFolder(path.join((await temp()).path, 'data'))
      env = { SUPABASE_DB_URL: pushed.url, WAITLIST_DATA_DIR: dir }
      for (const list of ['supabase', 'embedded'] as const)
        await sql(env, insert([['anna@example.com', 'hero_section', '2024-05-01T10:00:00Z']]), list)
    })
    afterAll(async () => {
      await drop?.()
      await rm(path.dirname(dir), { recursive: true, force: true })
    })

    it('a changing command refuses in one line naming both, and changes neither; --list makes each act on the list it names', async () => {
      // That each changing command refuses, operator-edges.test.ts proves by name.
      const refused = await cli('remove anna@example.com', env)
      expect(refused).toMatchObject({
        code: 2,
        stdout: '',
        said: [expect.stringContaining('remove changed nothing')],
      })
      for (const list of lists()) expect(refused.said[0]).toContain(list)
      expect(refused.said[0]).toMatch(
        /Say which: --list embedded, or --project <ref> for the Supabase database\.$/,
      )
      expect(await on('supabase')).toEqual(['anna@example.com'])
      expect(await on('embedded')).toEqual(['anna@example.com'])

      // What remove says, naming its list, the erasure test proves on each store.
      expect((await cli('remove anna@example.com --list embedded', env)).code).toBe(0)
      expect(await on('embedded')).toEqual([])
      expect(await on('supabase')).toEqual(['anna@example.com'])
      // Nothing names the project it is: --list supabase chooses the store, --project confirms it.
      const unconfirmed = await cli('remove anna@example.com --list supabase', env)
      expect(unconfirmed.code).toBe(2)
      expect(unconfirmed.said).toEqual([
        expect.stringMatching(
          /cannot tell .* as no Supabase URL is set for the site here\. .*--project/,
        ),
      ])
      expect((await cli('remove anna@example.com --project local', env)).code).toBe(0)
      expect(await on('supabase')).toEqual([])
    })

    it('a reading command says both: the list it read, and where the site writes', async () => {
      const { code, stdout, said } = await cli('count', env)
      expect({ code, stdout }).toEqual({
        code: 0,
        stdout: counted((await on('supabase')).length, lists()[0]!),
      })
      expect(said.at(-1)).toBe(
        `waitlist: note: the site here writes to ${lists()[1]} (no Supabase variables are set for it), not to this list.`,
      )
    })

    it('a SUPABASE_DB_URL off by its database or its password is said in one line, exit 1, with what to change', async () => {
      const off = (change: Partial<Pick<URL, 'pathname' | 'password'>>) => {
        const url = Object.assign(new URL(env.SUPABASE_DB_URL!), change)
        return cli('count', { ...env, SUPABASE_DB_URL: url.href })
      }
      expect(await off({ pathname: '/postgres' })).toMatchObject({
        code: 1,
        stdout: '',
        said: [
          expect.stringMatching(
            /^waitlist: the Supabase database postgres at .* has no table public.waitlist: SUPABASE_DB_URL names another database than the project's/,
          ),
        ],
      })
      expect(await off({ pathname: '/nosuchdb' })).toMatchObject({
        code: 1,
        stdout: '',
        said: [
          'waitlist: 127.0.0.1 has no database nosuchdb: on Supabase it is postgres, the end of SUPABASE_DB_URL (…:5432/postgres).',
        ],
      })
      const user = new URL(env.SUPABASE_DB_URL!).username
      expect(await off({ password: 'not-the-password' })).toMatchObject({
        code: 1,
        stdout: '',
        said: [
          `waitlist: ${host} refused the password of user ${user}: put the database password in SUPABASE_DB_URL, its at signs, colons and slashes percent-encoded (%40, %3A, %2F); Supabase resets it under Project Settings → Database.`,
        ],
      })
    })

    it('names a connection as a role that does not own the tables, before any command acts', async () => {
      const role = `waitlist_stranger_${process.pid}`
      await superuser(`create role ${role} login password 'stranger'; grant anon to ${role}`)
      try {
        const url = Object.assign(new URL(env.SUPABASE_DB_URL!), {
          username: role,
          password: 'stranger',
        })
        const owner = decodeURIComponent(new URL(env.SUPABASE_DB_URL!).username)
        for (const command of ['count', 'remove ben@example.com --project local']) {
          expect(await cli(command, { ...env, SUPABASE_DB_URL: url.href })).toMatchObject({
            code: 2,
            stdout: '',
            said: [
              `waitlist: SUPABASE_DB_URL connects as ${role}, who does not own the waitlist's tables (${owner} does, as \`supabase db push\` made them): the commands act as their owner, so connect as ${owner} (on Supabase's pooler, user ${owner}.<ref>).`,
            ],
          })
        }
      } finally {
        await superuser(`drop role ${role}`)
      }
    })

    it('--retire-previous refuses within 10 minutes of the --set that replaced it, a quiet site or not, and check says when', async () => {
      for (const secret of ['b1', 'b2']) {
        const set = { ...env, WAITLIST_SIGNING_SECRET: secret.repeat(20) }
        expect((await cli('signing-secret --set --project local', set)).code).toBe(0)
      }
      const early = await cli('signing-secret --retire-previous --project local', env)
      expect(early).toMatchObject({ code: 2, stdout: '' })
      expect(early.said.at(-1)).toMatch(
        /^waitlist: --retire-previous changed nothing: the previous secret was replaced \S+ \S+ UTC, 0 min ago, and last signed a signup never, so .*--force\.$/,
      )
      expect((await cli('check', env)).stdout).toMatch(
        /\nLast signed +never; the previous secret never, replaced \S+ \S+ UTC, 0 min ago\n/,
      )
      const forced = await cli('signing-secret --retire-previous --force --project local', env)
      expect(forced.code).toBe(0)
    })
  },
)

describe('the command line', () => {
  const nowhere = path.join(os.tmpdir(), `waitlist-nowhere-${process.pid}`)
  const env = { WAITLIST_DATA_DIR: nowhere }
  afterAll(() => rm(nowhere, { recursive: true, force: true }))

  // One of commander's own sentences proves them put in the commands' one line; the rest, what the commands allow.
  it.each([
    ['export --fromat json', 2, /^error: unknown option '--fromat' \(Did you mean --format\?\)$/],
    ['stats --days -5', 2, /argument '-5' is invalid\. It is a whole number from 1 to 3660\.$/],
    [
      'count --list production',
      2,
      /argument 'production' is invalid\. Allowed choices are supabase, embedded\.$/,
    ],
    [
      'count --project not/a/ref',
      2,
      /argument 'not\/a\/ref' is invalid\. It is a Supabase project's ref/,
    ],
    ['count --list supabase', 2, /^--list supabase needs SUPABASE_DB_URL, /],
    [
      `import ${os.tmpdir()}`,
      2,
      /^\/tmp is a folder: import takes a file, or - for standard input\.$/,
    ],
    ['import /no/such/list.csv', 2, /^there is no file \/no\/such\/list.csv to import\.$/],
    [
      'count',
      2,
      /^SUPABASE_URL is set.*set SUPABASE_DB_URL/,
      { SUPABASE_URL: 'https://abc.supabase.co' },
    ],
    [
      'check',
      1,
      /^the site takes no signups, its configuration is broken: WAITLIST_RATE_LIMIT_PER_MINUTE must be a whole number from 0 to 100000, not "abc"\.$/,
      { WAITLIST_RATE_LIMIT_PER_MINUTE: 'abc' },
    ],
    [
      'count',
      1,
      /^SUPABASE_DB_URL is https:\/\/abcd\.supabase\.co, not a postgresql:\/\/ connection string: take the URI under the dashboard's Connect button \(the session pooler's\), not the project's URL\.$/,
      { SUPABASE_DB_URL: 'https://abcd.supabase.co' },
    ],
    [
      'count',
      1,
      /^SUPABASE_DB_URL does not start with postgresql:\/\//,
      { SUPABASE_DB_URL: 'postgres.abc:secret@127.0.0.1:1/postgres' },
    ],
  ] as const)(
    '%s: exit %i, %s, in one line, nothing opened',
    async (command, status, says, more?: Env) => {
      const { code, stdout, said } = await cli(command, { ...env, ...more })
      expect({ code, stdout }).toEqual({ code: status, stdout: '' })
      expect(said).toEqual([expect.stringMatching(/^waitlist: /)])
      expect(said[0]!.slice('waitlist: '.length)).toMatch(says)
      expect(existsSync(nowhere)).toBe(false)
    },
  )

  it('under npm, says that a stray argument may be the value of an option npm dropped', async () => {
    // `--format json` leaves no trace but its value, which the command does not take.
    const value = await cli('export json', { ...env, npm_lifecycle_event: 'waitlist' })
    expect(value.said).toEqual([
      "waitlist: error: too many arguments for 'export'. Expected 0 arguments but got 1: json.",
      expect.stringMatching(
        /^waitlist: if it is an option's value, put -- after `npm run waitlist`/,
      ),
    ])
    expect(existsSync(nowhere)).toBe(false)
  })

  it('makes a new signing secret without touching the database', async () => {
    const made = await cli('signing-secret', {
      SUPABASE_DB_URL: 'postgresql://nobody@127.0.0.1:1/x',
    })
    expect(made).toMatchObject({ code: 0, stdout: expect.stringMatching(/^[\w-]{43}\n$/) })
    expect(made.stderr).toMatch(/WAITLIST_SIGNING_SECRET/)
  })

  it('makes no list where WAITLIST_DATA_DIR holds none, naming the folder and the lists beside it', async () => {
    await using dir = await temp()
    const list = await siteFolder(path.join(dir.path, 'waitlist'))
    const typo = path.join(dir.path, 'waitlst')
    expect(await cli('remove bob@example.com', { WAITLIST_DATA_DIR: typo })).toMatchObject({
      code: 2,
      stdout: '',
      said: [
        `waitlist: ${typo} holds no list, and the commands make none (the site makes it as it starts): check WAITLIST_DATA_DIR. Lists beside it: ${list}.`,
      ],
    })
    expect(existsSync(typo)).toBe(false)
  })

  describe('against a server that answers as PostgreSQL does when', () => {
    const servers: Server[] = []
    afterAll(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))))
    /** A server that answers the client's first message with `answer`; resolves to its URL. */
    async function answering(answer: (socket: Socket) => void) {
      const server = createServer((socket) => socket.once('data', () => answer(socket)))
      servers.push(server)
      await once(server.listen(0, '127.0.0.1'), 'listening')
      return `postgresql://postgres:secret@127.0.0.1:${(server.address() as { port: number }).port}/postgres`
    }
    const count = (url: string) => cli('count', { SUPABASE_DB_URL: url, ...SITE_ON_SUPABASE })

    it('it takes no encrypted connections, said with no library warning before the line', async () => {
      // PostgreSQL's answer to pg's SSLRequest where ssl is off: N, no.
      const url = await answering((socket) => socket.write('N'))
      const { status, stdout, said } = await cliProcess(['count'], {
        SUPABASE_DB_URL: `${url}?sslmode=require`,
        ...SITE_ON_SUPABASE,
      })
      expect({ status, stdout }).toEqual({ status: 1, stdout: '' })
      expect(said).toEqual([
        `waitlist: ${named(url)} does not take encrypted connections, and SUPABASE_DB_URL asks for one (sslmode=require): Supabase's databases all do, so check the host; for a PostgreSQL of your own without TLS, end the string with ?sslmode=disable.`,
      ])
    })

    it('it takes only encrypted connections', async () => {
      // PostgreSQL 15's own refusal, an ErrorResponse, for a client without TLS where pg_hba.conf allows only hostssl.
      const message =
        'no pg_hba.conf entry for host "127.0.0.1", user "postgres", database "postgres", no encryption'
      const fields = Buffer.from(`SFATAL\0VFATAL\0C28000\0M${message}\0\0`)
      const head = Buffer.alloc(5)
      head.write('E')
      head.writeInt32BE(fields.length + 4, 1)
      const url = await answering((socket) => socket.end(Buffer.concat([head, fields])))
      expect(await count(`${url}?sslmode=disable`)).toMatchObject({
        code: 1,
        said: [
          `waitlist: ${named(url)} takes only encrypted connections: end SUPABASE_DB_URL with ?sslmode=require&uselibpqcompat=true (${message}).`,
        ],
      })
    })

    it.skipIf(!which('openssl'))('it presents a certificate Node does not trust', async () => {
      const secureContext = tls.createSecureContext(selfSignedCertificate())
      // The answer to pg's SSLRequest: yes, then the handshake, with a certificate no authority signed.
      const url = await answering((socket) => {
        socket.write('S')
        new tls.TLSSocket(socket, { isServer: true, secureContext }).on('error', () => {})
      })
      expect(await count(`${url}?sslmode=require`)).toMatchObject({
        code: 1,
        said: [
          `waitlist: Node does not trust the certificate of ${named(url)} (DEPTH_ZERO_SELF_SIGNED_CERT): end SUPABASE_DB_URL with ?sslmode=require&uselibpqcompat=true, which encrypts as psql's sslmode=require does.`,
        ],
      })
    })
  })
})

describe('the embedded store while another process has the folder open, as a running site has', () => {
  let dir: string
  let env: Env
  let owner: ReturnType<typeof spawn>
  const printed: string[] = []

  beforeAll(async () => {
    dir = path.join((await temp()).path, 'data')
    env = { WAITLIST_DATA_DIR: dir }
    owner = spawn(process.execPath, ['--import', 'tsx', 'tests/support/open-folder.ts', dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const lines = createInterface({ input: owner.stdout! })
    lines.on('line', (line) => printed.push(line))
    for await (const line of lines) if (line === 'open') break
    // The ceiling, 600 a minute from everyone together, would refuse a stream as fast as the one below.
    await sql(env, 'update waitlist_private.signup_limits set signups_per_minute = null')
  })
  afterAll(async () => {
    const exited = once(owner, 'exit')
    owner.kill('SIGTERM')
    await exited
    expect({ status: owner.exitCode, last: printed.at(-1) }).toEqual({ status: 0, last: 'closed' })
    await rm(path.dirname(dir), { recursive: true, force: true })
  })

  it("exports, removes and imports between the site's signups, losing none", async () => {
    // The site's signups, one after another through the owner, for as long as the commands run.
    const stored: string[] = []
    let stopping = false
    const signups = holding(env, async ({ client }) => {
      const signUp = await site(client)
      for (let n = 1; !stopping; n += 1) {
        await signUp(`site-${n}@example.com`)
        stored.push(`site-${n}@example.com`)
        await sleep(3)
      }
    })
    let failure: unknown
    signups.catch((error: unknown) => (failure = error))
    const until = async (done: () => boolean) => {
      for (; !done(); await sleep(20)) if (failure) throw failure
    }
    /** `command`, then the proof that a signup landed after it began: the commands never stop the site. */
    const amid = async (command: string) => {
      const before = stored.length
      const result = await cli(command, env)
      await until(() => stored.length > before)
      return result
    }
    const imports = ['imported-1@example.com', 'imported-2@example.com']
    try {
      await until(() => stored.length >= 20)
      const before = [...stored]
      const exported = await amid('export --format json')
      expect(exported).toMatchObject({
        code: 0,
        stderr: expect.stringMatching(/through the server/),
      })
      expect(emails(exported.stdout)).toEqual(expect.arrayContaining(before))

      const gone = before[5]!
      expect((await amid(`remove ${gone}`)).stdout).toMatch(
        new RegExp(`^removed\t${gone}\nremoved 1 of 1 `),
      )
      const file = path.join(path.dirname(dir), 'list.json')
      await writeFile(
        file,
        JSON.stringify([...imports, gone].map((email) => ({ email, source: 'hero_section' }))),
      )
      expect(await amid(`import ${file}`)).toMatchObject({
        code: 0,
        stdout: tally(`the embedded database in ${dir}`, 2, 0, 1, 0),
      })
      stopping = true
      await signups
      const kept = stored.filter((email) => email !== gone)
      const { stdout } = await cli('export --format json', env)
      expect(emails(stdout).sort()).toEqual([...kept, ...imports].sort())
    } finally {
      stopping = true
      await signups.catch(() => {})
    }
  }, 60_000)

  it.skipIf(!which('psql'))(
    'check prints the psql command that reaches it while the owner runs, and it answers',
    async () => {
      const { code, stdout } = await cli('check', env)
      expect(code).toBe(0)
      const psql = /^psql +(psql .*)$/m.exec(stdout)?.[1] ?? ''
      expect(psql).toMatch(
        new RegExp(
          `^psql -h ${dir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} -p \\d+ -U postgres -d postgres$`,
        ),
      )
      const count = Number(/^(\d+) /.exec((await cli('count', env)).stdout)?.[1])
      const { stdout: answer } = await runProcess(
        'sh',
        ['-c', `${psql} -c 'select count(*) from public.waitlist'`],
        {},
      )
      expect(answer).toMatch(new RegExp(`^ +${count}$`, 'm'))
    },
  )
})

describe('through npm, as an operator starts them', () => {
  it('with the -- forgotten, the command says to put it before the options, and writes nothing', async () => {
    await using dir = await temp()
    const file = path.join(dir.path, 'x.csv')
    const result = await runProcess('npm', ['run', '-s', 'waitlist', 'export', '--output', file], {
      WAITLIST_DATA_DIR: path.join(dir.path, 'data'),
    })
    expect(result).toMatchObject({ status: 2, stdout: '' })
    expect(result.said).toEqual([
      'waitlist: npm took --output for itself: put -- after `npm run waitlist` so that npm leaves the options to the command: npm run waitlist -- export --output …',
    ])
    expect(existsSync(file) || existsSync(path.join(dir.path, 'data'))).toBe(false)
  })

  const needed = Number(readFileSync('.nvmrc', 'utf8').trim())
  const older = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'node'))
    .find((node) => {
      const ran = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' })
      return ran.status === 0 && Number(ran.stdout.split('.')[0]) < needed
    })
  if (!older)
    console.warn(`No Node older than ${needed} on PATH: skipping what the commands say on one`)

  it.skipIf(!older)(
    "npm run dev, npm start, npm test and npm run waitlist, on a Node older than .nvmrc's, each say in one line which they need",
    async () => {
      const PATH = `${path.dirname(older!)}${path.delimiter}${process.env.PATH}`
      // Should a guard let one through, the command finds no list of the project's to touch.
      const WAITLIST_DATA_DIR = path.join(os.tmpdir(), `waitlist-older-node-${process.pid}`)
      const scripts = [['dev'], ['start'], ['test'], ['waitlist', '--', 'count']]
      const results = await Promise.all(
        scripts.map((script) =>
          runProcess('npm', ['run', '-s', ...script], { PATH, WAITLIST_DATA_DIR }),
        ),
      )
      const needs = `^This project needs Node ${needed} or newer \\(.nvmrc\\), and this is Node \\d+\\.`
      expect(results).toEqual(
        scripts.map(() => ({ status: 1, stdout: '', said: [expect.stringMatching(needs)] })),
      )
    },
  )
})
