import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Writable, Readable } from 'node:stream'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openFolder } from '@/lib/waitlist/data-folder'
import { insertStatement, lit } from '@/lib/waitlist/embedded-store'
import { runWaitlistCli } from '@/lib/waitlist/operator/cli'
import { visitorHeaders, type Visitor } from '@/lib/waitlist/visitor'
import { postgresUnavailable, pushedDatabase } from './support/postgres'

/**
 * The rules every way in meets, kept by the table and its trigger
 * (supabase/migrations): tried as the public's role would, with the headers
 * the data service hands to SQL, on the embedded database and on PostgreSQL 15
 * with the schema `supabase db push` applied.
 */
const SECRET = 'a-secret-of-at-least-thirty-two-characters'
const unavailable = postgresUnavailable()
if (unavailable)
  console.warn(
    `PostgreSQL 15 is not running here (${unavailable}): skipping the database's rules on it`,
  )

type Entry = { email: string; source: 'hero_section' | 'cta_section' }
const entry = (email: string): Entry => ({ email, source: 'hero_section' })

/** What a statement answers: 'ok', or the SQLSTATE it fails with. */
async function answer(db: Pick<pg.Client, 'query'>, sql: string): Promise<string> {
  try {
    await db.query(sql)
    return 'ok'
  } catch (error) {
    return (error as { code: string }).code
  }
}

/** The headers the site sends with `row`, signed with `secret`. */
const signed = (
  row: Entry,
  visitor: Visitor = { address: '203.0.113.1', trusted: true },
  secret = SECRET,
  perMinute = 10,
) => visitorHeaders(row, visitor, { perMinute, hashSecret: SECRET, signingSecret: secret })

describe.each([
  ['the embedded database', embedded],
  ['PostgreSQL 15', unavailable ? undefined : postgres],
] as const)('on %s', (_name, open) => {
  let db: pg.Client
  let close: (() => Promise<void>) | undefined

  /** One signup as the site sends it: as `anon`, with `headers` where PostgREST puts them. */
  const signUp = (row: Entry, headers: Record<string, string> = {}) =>
    answer(db, insertStatement(row, headers))
  const values = (rows: Entry[]) =>
    rows.map((row) => `(${lit(row.email)}, ${lit(row.source)})`).join(', ')

  const stored = async (pattern = '%') =>
    Number(
      (await db.query(`select count(*) from public.waitlist where email like ${lit(pattern)}`))
        .rows[0].count,
    )
  /** What the ceiling has counted this minute. */
  const counted = async () =>
    Number(
      (
        await db.query(
          "select coalesce(sum(admitted), 0) as n from waitlist_private.signup_counts where counted_for = ''",
        )
      ).rows[0].n,
    )

  const setCeiling = (perMinute: number) =>
    db.query(`update waitlist_private.signup_limits set signups_per_minute = ${perMinute}`)
  const setSecrets = (current: string | null, previous: string | null = null) =>
    db.query(
      `update waitlist_private.secrets set signing_secret = ${current === null ? 'null' : lit(current)},
              previous_signing_secret = ${previous === null ? 'null' : lit(previous)}`,
    )
  /** The minute the limits count stands still, and moves only when a test says so. */
  const setClock = (at: string) =>
    db.query(`create or replace function waitlist_private.signup_clock() returns timestamptz language sql
                set search_path = '' as $$ select ${lit(at)}::timestamptz $$`)

  beforeAll(async () => {
    if (!open) return
    ;({ client: db, close } = await open())
  })
  afterAll(async () => {
    await db?.end()
    await close?.()
  })
  beforeEach(async (context) => {
    if (!open) return context.skip()
    await db.query(
      'delete from waitlist_private.signup_counts; delete from waitlist_private.erasures; delete from public.waitlist',
    )
    await setClock('2030-01-01T12:00:00Z')
    await setCeiling(600)
    await setSecrets(null)
  })

  describe('the public key', () => {
    it('may add an address and its source, once, in lower case, and nothing else', async () => {
      expect(await signUp(entry('ann@example.com'))).toBe('ok')
      expect(await signUp(entry('ann@example.com'))).toBe('23505')
      expect(await signUp(entry('ANN@example.com'))).toBe('23514')
      expect(await stored()).toBe(1)
      for (const sql of [
        'select * from public.waitlist',
        "update public.waitlist set source = 'cta_section'",
        'delete from public.waitlist',
      ]) {
        await expect(db.query(`set local role anon; ${sql}`)).rejects.toMatchObject({
          code: '42501',
        })
      }
    })

    it('reaches no schema but public, no function of the project, and of the table only INSERT on email and source', async () => {
      // PostgreSQL's own schemas and the platform's `extensions` (pgcrypto) are every role's.
      const { rows } = await db.query(`
        select r.rolname as role,
          array(select n.nspname::text from pg_namespace n
                 where has_schema_privilege(r.oid, n.oid, 'usage')
                   and n.nspname not in ('pg_catalog', 'information_schema', 'extensions')) as schemas,
          array(select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                 where n.nspname not in ('pg_catalog', 'information_schema', 'extensions')
                   and has_function_privilege(r.oid, p.oid, 'execute')) as functions,
          array(select x from (
                  select p from unnest('{SELECT,INSERT,UPDATE,DELETE,TRUNCATE,REFERENCES,TRIGGER}'::text[]) p
                   where has_table_privilege(r.oid, 'public.waitlist', p)
                  union all
                  select p || ' ' || a.attname from pg_attribute a, unnest('{SELECT,INSERT,UPDATE,REFERENCES}'::text[]) p
                   where a.attrelid = 'public.waitlist'::regclass and a.attnum > 0
                     and has_column_privilege(r.oid, a.attrelid, a.attnum, p)
                  union all
                  select 'the id sequence'
                   where has_sequence_privilege(r.oid, 'public.waitlist_id_seq', 'usage, select, update')
                ) t(x) order by x) as waitlist
        from pg_roles r where r.rolname in ('anon', 'authenticated') order by 1`)
      expect(rows).toEqual([
        {
          role: 'anon',
          schemas: ['public'],
          functions: [],
          waitlist: ['INSERT email', 'INSERT source'],
        },
        { role: 'authenticated', schemas: ['public'], functions: [], waitlist: [] },
      ])
    })

    it("meets the table's rules: the HTML standard's address, lower case, 254 characters, a known form", async () => {
      expect(await signUp(entry('first!last@examplehost'))).toBe('ok')
      for (const email of [
        'Ann@example.com',
        'a b@example.com',
        'ann@exa_mple.com',
        `${'a'.repeat(250)}@x.io`,
      ]) {
        expect(await signUp(entry(email)), email).toBe('23514')
      }
      expect(await signUp({ email: 'ann@example.com', source: 'footer' as 'hero_section' })).toBe(
        '23514',
      )
    })

    it('adds one row at a time: a batch stores nothing, whatever is in it', async () => {
      const batch = values([entry('one@example.com'), entry('two@example.com')])
      const insert = `insert into public.waitlist (email, source) values ${batch}`
      expect(await answer(db, `set local role anon; ${insert}`)).toBe('42501')
      expect(await stored()).toBe(0)
      expect(await answer(db, insert)).toBe('ok')
    })
  })

  describe('the limits', () => {
    const client = (key: string, allowance: number) => ({
      'x-waitlist-client': key.repeat(43),
      'x-waitlist-allowance': String(allowance),
    })

    it("hold a client to its allowance, and everyone to the ceiling; the owner's imports to neither", async () => {
      const answers = []
      for (const n of [1, 2, 3])
        answers.push(await signUp(entry(`client-${n}@example.com`), client('c', 2)))
      expect(answers).toEqual(['ok', 'ok', 'PT429'])
      await setCeiling(3)
      expect(await signUp(entry('fills@example.com'))).toBe('ok')
      expect(await signUp(entry('over@example.com'))).toBe('PT429')
      const imported = `insert into public.waitlist (email, source) values ${values([entry('import@example.com')])}`
      expect(await answer(db, imported)).toBe('ok')
      // Only what was admitted counts: refused inserts and the import left nothing behind.
      expect(await counted()).toBe(3)
    })

    it('count each minute of the clock afresh, and keep no more than about a minute of counts', async () => {
      await setCeiling(2)
      expect(await signUp(entry('a@example.com'), client('a', 1))).toBe('ok')
      expect(await signUp(entry('a2@example.com'), client('a', 1))).toBe('PT429')
      expect(await signUp(entry('b@example.com'), client('b', 1))).toBe('ok')
      expect(await signUp(entry('c@example.com'))).toBe('PT429')
      await setClock('2030-01-01T12:00:59.999Z')
      expect(await signUp(entry('c@example.com'))).toBe('PT429')
      await setClock('2030-01-01T12:01:00Z')
      expect(await signUp(entry('a2@example.com'), client('a', 1))).toBe('ok')
      expect(await signUp(entry('c@example.com'))).toBe('ok')
      expect(await signUp(entry('d@example.com'))).toBe('PT429')
      // b's count of the minute before is gone, deleted by the signups since.
      const { rows } = await db.query(
        'select counted_for, admitted from waitlist_private.signup_counts order by 1',
      )
      expect(rows).toEqual([
        { counted_for: '', admitted: 2 },
        { counted_for: 'a'.repeat(43), admitted: 1 },
      ])
    })

    it("admit a trusted, signed client's first signup of the minute over a full ceiling, and no more", async () => {
      await setSecrets(SECRET)
      await setCeiling(2)
      for (const n of [1, 2])
        expect(
          await signUp(
            entry(`flood-${n}@example.com`),
            signed(entry(`flood-${n}@example.com`), { address: '198.51.100.1', trusted: true }),
          ),
        ).toBe('ok')
      const fresh = (email: string, visitor: Visitor) =>
        signUp(entry(email), signed(entry(email), visitor))
      expect(await fresh('fresh@example.com', { address: '203.0.113.50', trusted: true })).toBe(
        'ok',
      )
      expect(
        await fresh('fresh-again@example.com', { address: '203.0.113.50', trusted: true }),
      ).toBe('PT429')
      expect(
        await fresh('untrusted@example.com', { address: '203.0.113.51', trusted: false }),
      ).toBe('PT429')
      await setSecrets(null)
      // Unsigned, a claim of trust is worth nothing.
      const claims = signed(entry('claims@example.com'), { address: '203.0.113.52', trusted: true })
      expect(await signUp(entry('claims@example.com'), claims)).toBe('PT429')
    })

    it.runIf(open === postgres).each([
      { limit: 'the ceiling', places: 5, setup: () => setCeiling(5), headers: () => ({}) },
      { limit: "a client's allowance", places: 5, setup: () => {}, headers: () => client('r', 5) },
      {
        limit: "a trusted client's first signup over a full ceiling",
        places: 1,
        async setup() {
          await setSecrets(SECRET)
          await setCeiling(1)
          const fill = entry('fills@example.com')
          expect(await signUp(fill, signed(fill, { trusted: false }))).toBe('ok')
        },
        headers: (email: string) => signed(entry(email), { address: '203.0.113.9', trusted: true }),
      },
    ])(
      'let inserts at once never both take the last place under $limit',
      async ({ places, setup, headers }) => {
        await setup()
        const url = (db as unknown as { connectionParameters: { connectionString?: string } })
          .connectionParameters
        const racers = await Promise.all(
          Array.from({ length: 20 }, async () => {
            const racer = new pg.Client(url)
            await racer.connect()
            return racer
          }),
        )
        const answers = await Promise.all(
          racers.map(async (racer, i) => {
            const email = `race-${i}@example.com`
            try {
              return await answer(racer, insertStatement(entry(email), headers(email)))
            } finally {
              await racer.end()
            }
          }),
        )
        expect(answers.filter((said) => said === 'ok')).toHaveLength(places)
        expect(answers.filter((said) => said !== 'ok')).toEqual(Array(20 - places).fill('PT429'))
        expect(await stored('race-%')).toBe(places)
      },
    )
  })

  describe('with a signing secret set', () => {
    beforeEach(() => setSecrets(SECRET))

    it("stores the site's signed insert, and refuses unsigned, altered, stale or foreign ones before any limit counts them", async () => {
      expect(await signUp(entry('site@example.com'), signed(entry('site@example.com')))).toBe('ok')
      const headers = signed(entry('ann@example.com'))
      expect(await signUp(entry('ann@example.com'))).toBe('42501')
      expect(await signUp(entry('other@example.com'), headers)).toBe('42501')
      expect(
        await signUp(entry('ann@example.com'), { ...headers, 'x-waitlist-allowance': '999' }),
      ).toBe('42501')
      const stale = headers['x-waitlist-signature']!.replace(/^\d+/, (t) => String(Number(t) - 600))
      expect(
        await signUp(entry('ann@example.com'), { ...headers, 'x-waitlist-signature': stale }),
      ).toBe('42501')
      const macless = headers['x-waitlist-signature']!.replace(/[0-9a-f]+$/, '')
      expect(
        await signUp(entry('ann@example.com'), { ...headers, 'x-waitlist-signature': macless }),
      ).toBe('42501')
      const foreign = signed(
        entry('ann@example.com'),
        undefined,
        'another-secret-of-32-characters!!',
      )
      expect(await signUp(entry('ann@example.com'), foreign)).toBe('42501')
      const batch = values([entry('ann@example.com'), entry('bob@example.com')])
      const set = `select set_config('request.headers', ${lit(JSON.stringify(headers))}, true)`
      expect(
        await answer(
          db,
          `set local role anon; ${set}; insert into public.waitlist (email, source) values ${batch}`,
        ),
      ).toBe('42501')
      expect(await stored()).toBe(1)
      expect(await counted()).toBe(1)
    })

    it('accepts the secret it replaced as well, until that is retired', async () => {
      const NEW = 'the-new-secret-of-at-least-thirty-two-characters'
      const by = (secret: string, email: string) =>
        signUp(entry(email), signed(entry(email), undefined, secret))
      await setSecrets(NEW, SECRET)
      expect(await by(SECRET, 'old-site@example.com')).toBe('ok')
      expect(await by(NEW, 'new-site@example.com')).toBe('ok')
      await setSecrets(NEW)
      expect(await by(SECRET, 'old-site-2@example.com')).toBe('42501')
      expect(await by(NEW, 'new-site-2@example.com')).toBe('ok')
    })
  })
})

/**
 * The README's steps to change the signing secret, on PostgreSQL 15 as
 * `supabase db push` leaves a project, through the operator's own commands,
 * while two sites sign up without pause: one signing with the old secret (the
 * deployment being replaced), one with the new (the deployment replacing it),
 * each with the site's own signing code and insert. What a server adds to
 * that, reading WAITLIST_SIGNING_SECRET and sending its insert through the
 * data service, e2e/deployment.spec.ts proves with next start.
 */
describe.skipIf(unavailable)('changing the signing secret, as the README says', () => {
  const OLD = 'the-secret-the-site-signs-with-now-0123456789'
  const NEW = 'the-secret-that-replaces-it-0123456789abcdefgh'

  async function cli(command: string, env: Record<string, string>) {
    let [stdout, stderr] = ['', '']
    const sink = (add: (text: string) => void) =>
      new Writable({
        write(chunk, _encoding, done) {
          add(String(chunk))
          done()
        },
      })
    const code = await runWaitlistCli(command.split(' '), {
      env,
      stdin: Readable.from([]),
      stdout: sink((text) => (stdout += text)),
      stderr: sink((text) => (stderr += text)),
    })
    return { code, stdout, stderr }
  }

  /** A site signing up one visitor after another with `secret`, each answer kept, until stopped. */
  async function site(url: string, name: string, secret: string) {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    const answers: string[] = []
    let running = true
    let stopped = false
    const done = (async () => {
      for (let n = 0; running; n += 1) {
        const row = entry(`${name}-${n}@example.com`)
        const headers = visitorHeaders(
          row,
          { trusted: false },
          { perMinute: 0, hashSecret: secret, signingSecret: secret },
        )
        answers.push(await answer(client, insertStatement(row, headers)))
        await sleep(2)
      }
    })()
    return {
      answers,
      /** Lets the site run until it has made `more` signups beyond those so far. */
      async through(more: number) {
        const until = answers.length + more
        while (answers.length < until) await sleep(5)
      },
      async stop() {
        running = false
        await done
        if (!stopped) await client.end()
        stopped = true
      },
    }
  }

  it("refuses no signup of either site at any step, and the old secret's once it is retired", async () => {
    const { url, drop } = await pushedDatabase()
    const env = { SUPABASE_DB_URL: url }
    const sites: Awaited<ReturnType<typeof site>>[] = []
    try {
      const owner = new pg.Client({ connectionString: url })
      await owner.connect()
      await owner.query('update waitlist_private.signup_limits set signups_per_minute = 0')
      await owner.end()
      expect(
        (
          await cli('signing-secret --set --list supabase', {
            ...env,
            WAITLIST_SIGNING_SECRET: OLD,
          })
        ).code,
      ).toBe(0)
      const before = await site(url, 'old', OLD)
      sites.push(before)
      await before.through(10)

      // 1. The new secret goes to the database, while the site signs with the old.
      const set = cli('signing-secret --set --list supabase', {
        ...env,
        WAITLIST_SIGNING_SECRET: NEW,
      })
      await before.through(5)
      expect((await set).code).toBe(0)
      // Run twice, the step changes nothing: the old secret is still the one kept.
      const again = await cli('signing-secret --set --list supabase', {
        ...env,
        WAITLIST_SIGNING_SECRET: NEW,
      })
      expect(again.code).toBe(0)
      const check = await cli('check', env)
      expect(check.stdout).toMatch(
        /\nSigning secret +set: only the site adds to the list; the previous secret is still accepted\n/,
      )
      expect(check.stderr).toMatch(/--retire-previous/)

      // 2. The new deployment, signing with the new secret, beside the old until it is replaced.
      const after = await site(url, 'new', NEW)
      sites.push(after)
      await Promise.all([before.through(10), after.through(10)])
      await before.stop()

      // 3. The old secret retired, while the new deployment signs up.
      const retire = cli('signing-secret --retire-previous --list supabase', env)
      await after.through(5)
      expect((await retire).code).toBe(0)
      await after.through(5)
      await after.stop()
      expect([...before.answers, ...after.answers].filter((said) => said !== 'ok')).toEqual([])
      expect((await cli('check', env)).stdout).toMatch(
        /\nSigning secret +set: only the site adds to the list\n/,
      )

      const late = await site(url, 'late-old', OLD)
      sites.push(late)
      await late.through(3)
      await late.stop()
      expect(new Set(late.answers)).toEqual(new Set(['42501']))
    } finally {
      await Promise.all(sites.map((running) => running.stop()))
      await drop()
    }
  })
})

/** The embedded database in a folder of its own, opened as the site opens it. */
async function embedded() {
  const folder = await mkdtemp(path.join(tmpdir(), 'waitlist-rules-'))
  const database = await openFolder(folder)
  const client = new pg.Client(database.connection)
  await client.connect()
  return {
    client,
    close: async () => {
      await database.close()
      await rm(folder, { recursive: true, force: true })
    },
  }
}

/** A database as a Supabase project has it after `supabase db push`, connected as its owner. */
async function postgres() {
  const { url, drop } = await pushedDatabase()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return { client, close: drop }
}
