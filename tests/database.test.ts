import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { openFolder } from '@/lib/waitlist/data-folder'
import { insertStatement, lit } from '@/lib/waitlist/embedded-store'
import { erase } from '@/lib/waitlist/operator/sql'
import { visitorHeaders, type Visitor } from '@/lib/waitlist/visitor'
import { cli } from './support/cli'
import { postgresUnavailable, pushedDatabase, supabase } from './support/postgres'

// The rules every way in meets, kept by the table and its trigger: tried as the public's role with
// the data service's headers, on the embedded database and PostgreSQL 15 after `supabase db push`.
const SECRET = 'a-secret-of-at-least-thirty-two-characters'
const unavailable = postgresUnavailable()

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

/** The headers the site sends with `row`, signed with `secret`, `shift` ms from now. */
const signed = (
  row: Entry,
  visitor: Visitor = { address: '203.0.113.1', trusted: true },
  secret = SECRET,
  perMinute = 10,
  shift = 0,
) => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + shift })
  try {
    return visitorHeaders(row, visitor, { perMinute, hashSecret: SECRET, signingSecret: secret })
  } finally {
    vi.useRealTimers()
  }
}
const untrusted = (address: string): Visitor => ({ address, trusted: false })

describe.each([
  ['the embedded database', embedded],
  ['PostgreSQL 15', unavailable ? undefined : postgres],
] as const)('on %s', (_name, open) => {
  let db: pg.Client
  let url: string | undefined
  let close: (() => Promise<void>) | undefined

  /** One signup as the site sends it: as `anon`, with `headers` where PostgREST puts them. */
  const signUp = (row: Entry, headers: Record<string, string> = {}) =>
    answer(db, insertStatement(row, headers))
  /** One signup of the site's, signed: by default of a visitor with no address it could read. */
  const join = (email: string, visitor: Visitor = { trusted: false }, perMinute = 10) =>
    signUp(entry(email), signed(entry(email), visitor, SECRET, perMinute))
  /** Any `insert` as `role`, with `headers` where PostgREST puts them. */
  const insertAs = (role: string, headers: Record<string, string>, insert: string) => {
    const set = `select set_config('request.headers', ${lit(JSON.stringify(headers))}, true)`
    return answer(db, `set local role ${role}; ${set}; ${insert}`)
  }
  const insertOf = (rows: Entry[]) =>
    `insert into public.waitlist (email, source) values ${rows.map((row) => `(${lit(row.email)}, ${lit(row.source)})`).join(', ')}`

  /** The number `sql` selects as n. */
  const number = async (sql: string) => Number((await db.query(sql)).rows[0].n)
  const stored = (pattern = '%') =>
    number(`select count(*) as n from public.waitlist where email like ${lit(pattern)}`)
  /** What the ceiling has counted this minute. */
  const counted = () =>
    number("select sum(admitted) as n from waitlist_private.signup_counts where counted_for = ''")

  const setCeiling = (perMinute: number | null) =>
    db.query(`update waitlist_private.signup_limits set signups_per_minute = ${perMinute}`)
  const setSecrets = (current: string | null, previous: string | null = null) =>
    db.query(
      `update waitlist_private.secrets set signing_secret = $1, previous_signing_secret = $2,
              signed_at = null, previous_signed_at = null`,
      [current, previous],
    )
  /** The minute the limits count stands still, and moves only when a test says so. */
  const setClock = (at: string) =>
    db.query(`create or replace function waitlist_private.signup_clock() returns timestamptz language sql
                set search_path = pg_catalog, pg_temp as $$ select ${lit(at)}::timestamptz $$`)

  beforeAll(async () => {
    if (!open) return
    ;({ client: db, close, url } = await open())
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
    await setSecrets(SECRET)
  })

  describe('the public key', () => {
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
      expect(await join('first!last@examplehost')).toBe('ok')
      for (const email of [
        'Ann@example.com',
        'a b@example.com',
        'ann@exa_mple.com',
        `${'a'.repeat(250)}@x.io`,
      ]) {
        expect(await join(email), email).toBe('23514')
      }
      const footer = { email: 'ann@example.com', source: 'footer' as 'hero_section' }
      expect(await signUp(footer, signed(footer))).toBe('23514')
    })
  })

  describe('the limits', () => {
    const fresh = (email: string, address: string) => join(email, { address, trusted: true })
    /** The answers to `count` signups made one after another, the nth by `signUpNth(n)`. */
    const inTurn = async (count: number, signUpNth: (n: number) => Promise<string>) => {
      const answers: string[] = []
      for (let n = 0; n < count; n += 1) answers.push(await signUpNth(n))
      return answers
    }
    const admitted = (answers: string[]) => answers.filter((said) => said === 'ok').length

    it("hold a client to its allowance, and everyone to the ceiling; the owner's imports to neither", async () => {
      const client = untrusted('198.51.100.7')
      const answers = await inTurn(3, (n) => join(`client-${n}@example.com`, client, 2))
      expect(answers).toEqual(['ok', 'ok', 'PT429'])
      await setCeiling(3)
      expect(await join('fills@example.com')).toBe('ok')
      expect(await join('over@example.com')).toBe('PT429')
      expect(await answer(db, insertOf([entry('import@example.com')]))).toBe('ok')
      // Only what was admitted counts: refused inserts and the import left nothing behind.
      expect(await counted()).toBe(3)
    })

    it('close at 0 and set no ceiling at null', async () => {
      await setCeiling(0)
      expect(await join('closed@example.com')).toBe('PT429')
      expect(await fresh('closed-fresh@example.com', '203.0.113.60')).toBe('PT429')
      await setCeiling(null)
      for (let n = 0; n < 5; n += 1) expect(await join(`open-${n}@example.com`)).toBe('ok')
      expect(await stored()).toBe(5)
    })

    it("slide over the last 60 seconds, the last minute's count weighted by what of it is still inside", async () => {
      await setCeiling(10)
      await setClock('2030-01-01T12:00:59.5Z')
      const burst = async (name: string, visitor?: Visitor, perMinute?: number) =>
        admitted(await inTurn(10, (n) => join(`${name}-${n}@example.com`, visitor, perMinute)))
      expect(await burst('last-second')).toBe(10)
      await setClock('2030-01-01T12:01:00.5Z')
      // 10 × 59.5/60 counted still: one place left, not ten.
      expect(await burst('first-second')).toBe(1)
      await setClock('2030-01-01T12:01:30Z')
      expect(await burst('half-way')).toBe(4)

      await setCeiling(null)
      const client = untrusted('198.51.100.8')
      await setClock('2030-01-01T12:02:59.5Z')
      expect(await burst('client-last', client, 3)).toBe(3)
      await setClock('2030-01-01T12:03:00.5Z')
      expect(await burst('client-first', client, 3)).toBe(1)
      // What is older than the minute before is gone, deleted by the signups since.
      expect(await counted()).toBe(0)
      expect(await stored()).toBe(19)
    })

    it('store at most the ceiling in a clock minute, so up to twice it in 60 seconds, four times with the lane', async () => {
      await setCeiling(10)
      /** How many of 12 signups are stored: untrusted ones, or fresh trusted ones over a full ceiling. */
      const burst = async (name: string, lane = false) =>
        admitted(
          await inTurn(12, (n) =>
            lane
              ? fresh(`${name}-${n}@example.com`, `203.0.113.${n + 1}`)
              : join(`${name}-${n}@example.com`, untrusted(`198.51.100.${n + 1}`), 100),
          ),
        )
      await setClock('2030-01-01T12:00:59Z')
      expect(await burst('late')).toBe(10)
      await setClock('2030-01-01T12:01:58Z')
      expect(await burst('later')).toBe(10)
      expect(await stored()).toBe(20)

      await setClock('2030-01-01T12:10:59Z')
      expect([await burst('lane-late'), await burst('lane-late-fresh', true)]).toEqual([10, 10])
      await setClock('2030-01-01T12:11:58Z')
      expect([await burst('lane-later'), await burst('lane-later-fresh', true)]).toEqual([10, 10])
      expect(await stored('lane-%')).toBe(40)
    })

    it("admit a trusted, signed client's first signup in 60 seconds over a full ceiling, up to the ceiling again, and no more", async () => {
      await setCeiling(10)
      for (let n = 0; n < 10; n += 1)
        expect(await join(`flood-${n}@example.com`, untrusted('198.51.100.1'), 100)).toBe('ok')
      expect(await fresh('fresh@example.com', '203.0.113.50')).toBe('ok')
      expect(await fresh('fresh-again@example.com', '203.0.113.50')).toBe('PT429')
      expect(await join('untrusted@example.com', untrusted('203.0.113.51'))).toBe('PT429')
      const lane = await inTurn(60, (n) => fresh(`lane-${n}@example.com`, `203.0.113.${100 + n}`))
      expect(lane).toEqual([...Array(9).fill('ok'), ...Array(51).fill('PT429')])
      expect(await stored()).toBe(20)
    })

    it.runIf(open === postgres).each([
      {
        limit: 'the ceiling',
        setup: () => setCeiling(5),
        visitor: () => ({ trusted: false }),
      },
      {
        limit: "a client's allowance",
        setup: () => {},
        visitor: () => untrusted('198.51.100.9'),
      },
      {
        limit: 'the ceiling again, for trusted clients over a full one',
        async setup() {
          await setCeiling(5)
          for (let n = 0; n < 5; n += 1) expect(await join(`fills-${n}@example.com`)).toBe('ok')
        },
        visitor: (i: number) => ({ address: `203.0.113.${i}`, trusted: true }),
      },
    ])(
      'let inserts at once never both take the last of 5 places under $limit',
      async ({ setup, visitor }) => {
        await setup()
        const racers = await Promise.all(
          Array.from({ length: 20 }, async () => {
            const racer = new pg.Client({ connectionString: url })
            await racer.connect()
            return racer
          }),
        )
        const answers = await Promise.all(
          racers.map(async (racer, i) => {
            const row = entry(`race-${i}@example.com`)
            try {
              return await answer(racer, insertStatement(row, signed(row, visitor(i), SECRET, 5)))
            } finally {
              await racer.end()
            }
          }),
        )
        expect(answers.filter((said) => said === 'ok')).toHaveLength(5)
        expect(answers.filter((said) => said !== 'ok')).toEqual(Array(15).fill('PT429'))
        expect(await stored('race-%')).toBe(5)
      },
    )
  })

  describe('the signature', () => {
    /** One signup of the default visitor, signed with `secret`. */
    const signedWith = (secret: string, email: string) =>
      signUp(entry(email), signed(entry(email), undefined, secret))

    it("stores the site's signed insert, and refuses unsigned, altered or foreign ones before any limit counts them", async () => {
      expect(await join('site@example.com')).toBe('ok')
      const headers = signed(entry('ann@example.com'))
      expect(await signUp(entry('ann@example.com'))).toBe('42501')
      expect(await signUp(entry('other@example.com'), headers)).toBe('42501')
      expect(
        await signUp(entry('ann@example.com'), { ...headers, 'x-waitlist-allowance': '999' }),
      ).toBe('42501')
      const macless = headers['x-waitlist-signature']!.replace(/[0-9a-f]+$/, '')
      expect(
        await signUp(entry('ann@example.com'), { ...headers, 'x-waitlist-signature': macless }),
      ).toBe('42501')
      expect(await signedWith('another-secret-of-32-characters!!', 'ann@example.com')).toBe('42501')
      const batch = insertOf([entry('ann@example.com'), entry('bob@example.com')])
      expect(await insertAs('anon', headers, batch)).toBe('42501')
      expect(await stored()).toBe(1)
      expect(await counted()).toBe(1)
    })

    it('is good from 60 seconds old to 30 seconds ahead, and no longer', async () => {
      const at = (email: string, shift: number) =>
        signUp(entry(email), signed(entry(email), undefined, SECRET, 10, shift))
      expect(await at('old@example.com', -55_000)).toBe('ok')
      expect(await at('ahead@example.com', 25_000)).toBe('ok')
      expect(await at('stale@example.com', -65_000)).toBe('42501')
      expect(await at('early@example.com', 35_000)).toBe('42501')
      expect(await stored()).toBe(2)
    })

    it('closes signups until a secret is set, saying the command that sets it', async () => {
      await setSecrets(null)
      const refusal = db.query(insertStatement(entry('unsigned@example.com'), {}))
      await expect(refusal).rejects.toMatchObject({
        code: '42501',
        message: expect.stringContaining('npm run waitlist -- signing-secret --set'),
      })
      const madeUp = 'a-made-up-secret-of-32-characters!'
      expect(await signedWith(madeUp, 'made-up@example.com')).toBe('42501')
      const generous = { 'x-waitlist-client': 'x'.repeat(43), 'x-waitlist-allowance': '999999' }
      expect(await signUp(entry('generous@example.com'), generous)).toBe('42501')
      expect(await stored()).toBe(0)
    })

    it('accepts the secret it replaced as well, until that is retired, recording when each last signed', async () => {
      const NEW = 'the-new-secret-of-at-least-thirty-two-characters'
      const lastSigned = async () =>
        (
          await db.query(
            `select signed_at > now() - interval '1 minute' as current,
                    previous_signed_at > now() - interval '1 minute' as previous from waitlist_private.secrets`,
          )
        ).rows[0]
      await setSecrets(NEW, SECRET)
      expect(await lastSigned()).toEqual({ current: null, previous: null })
      expect(await signedWith(SECRET, 'old-site@example.com')).toBe('ok')
      expect(await lastSigned()).toEqual({ current: null, previous: true })
      expect(await signedWith(NEW, 'new-site@example.com')).toBe('ok')
      expect(await lastSigned()).toEqual({ current: true, previous: true })
      await setSecrets(NEW)
      expect(await signedWith(SECRET, 'old-site-2@example.com')).toBe('42501')
      expect(await signedWith(NEW, 'new-site-2@example.com')).toBe('ok')
    })
  })

  describe('an erasure', () => {
    const heldBack = () => number('select count(held_back_at) as n from waitlist_private.erasures')
    const twice = async (email: string) => [await join(email), await join(email)]

    it('is answered as a new address is: the first signup held back as if stored, every later one a duplicate', async () => {
      expect(await join('ann@example.com')).toBe('ok')
      expect(await erase({ client: db }, 'Ann@Example.com')).toBe(true)
      expect(await erase({ client: db }, 'never@example.com')).toBe(false)
      const answers = await twice('new@example.com')
      expect(answers).toEqual(['ok', '23505'])
      expect(await twice('ann@example.com')).toEqual(answers)
      expect(await twice('never@example.com')).toEqual(answers)
      // With the message and fields the table's own refusal has for the public role.
      const refusal = async (email: string) => {
        const { code, message, detail, hint, schema, table, constraint } = (await db
          .query(insertStatement(entry(email), signed(entry(email))))
          .catch((error: unknown) => error)) as pg.DatabaseError
        return { code, message, detail, hint, schema, table, constraint }
      }
      expect(await refusal('ann@example.com')).toEqual(await refusal('new@example.com'))
      expect(await stored()).toBe(1)
      expect(await heldBack()).toBe(2)
    })

    it('asked again, answers the next signup as a new address once more, and keeps counting what it held back', async () => {
      await erase({ client: db }, 'bob@example.com')
      expect(await twice('bob@example.com')).toEqual(['ok', '23505'])
      expect(await erase({ client: db }, 'bob@example.com')).toBe(false)
      expect(await twice('bob@example.com')).toEqual(['ok', '23505'])
      expect(await stored()).toBe(0)
      expect(await heldBack()).toBe(1)
    })

    it('meets the limits like any signup, so that no refusal tells it apart', async () => {
      expect(await erase({ client: db }, 'ann@example.com')).toBe(false)
      await setCeiling(1)
      expect(await join('ann@example.com')).toBe('ok')
      expect(await join('ann@example.com')).toBe('PT429')
      expect(await heldBack()).toBe(1)
    })

    it('refuses a statement of many rows of it, signed once, before any counts, as it does a new address', async () => {
      await erase({ client: db }, 'ann@example.com')
      const many = (email: string) =>
        insertAs(
          'anon',
          signed(entry(email)),
          `insert into public.waitlist (email, source) select ${lit(email)}, 'hero_section' from generate_series(1, 20)`,
        )
      expect(await many('ann@example.com')).toBe('23505')
      expect(await many('new@example.com')).toBe('23505')
      expect(await heldBack()).toBe(0)
      expect(await counted()).toBe(0)
      expect(await stored()).toBe(0)
      expect(await join('ann@example.com')).toBe('ok')
      expect(await heldBack()).toBe(1)
    })

    it.runIf(open === postgres)(
      'and a signup of the address at once never leave it listed and erased, whichever began first',
      async () => {
        const row = entry('race@example.com')
        const signUp = () => insertStatement(row, signed(row))
        const erasing = "select waitlist_private.erase('race@example.com')"
        await race(erasing, signUp())
        expect(await stored('race@%')).toBe(0)
        expect(await heldBack()).toBe(1)
        await db.query('delete from waitlist_private.erasures')
        await race(signUp(), erasing)
        expect(await stored('race@%')).toBe(0)
      },
    )

    it('and a signup at repeatable read are refused, as each could miss the other', async () => {
      const isolated = `begin isolation level repeatable read; ${insertStatement(entry('rr@example.com'), signed(entry('rr@example.com')))}`
      const answered = await answer(db, isolated)
      await db.query('rollback')
      expect(answered).toBe('25000')
    })
  })

  /** Commits `held`, left open, once `meanwhile` (another session) waits on its lock or is done. */
  async function race(held: string, meanwhile: string) {
    const [holder, other] = [url, url].map((at) => new pg.Client({ connectionString: at }))
    await Promise.all([holder!.connect(), other!.connect()])
    try {
      await holder!.query(`begin; ${held}`)
      let settled = false
      const second = other!.query(meanwhile).finally(() => (settled = true))
      const pid = (other as unknown as { processID: number }).processID
      const waiting = `select wait_event_type = 'Lock' as waits from pg_stat_activity where pid = ${pid}`
      while (!settled && !(await db.query(waiting)).rows[0]?.waits) await sleep(10)
      await holder!.query('commit')
      await second
    } finally {
      await Promise.all([holder!.end(), other!.end()])
    }
  }

  describe('the rules', () => {
    it("meet every role but the tables' owner, a role granted INSERT later included", async () => {
      const role = `waitlist_later_${process.pid}`
      await db.query(`drop role if exists ${role}; create role ${role};
        grant insert (email, source) on public.waitlist to ${role}; grant ${role} to current_user;
        create policy later on public.waitlist for insert to ${role} with check (true)`)
      try {
        const insert = insertOf([entry('later@example.com')])
        expect(await answer(db, `set local role ${role}; ${insert}`)).toBe('42501')
        const headers = signed(entry('later@example.com'), { trusted: false })
        expect(await insertAs(role, headers, insert)).toBe('ok')
      } finally {
        await db.query(
          `drop policy later on public.waitlist; revoke insert on public.waitlist from ${role}; drop role ${role}`,
        )
      }
    })

    it("never run a caller's own types as the owner: pg_catalog comes before pg_temp", async () => {
      // A probe in pg_temp recording who runs it, as any role that may insert can make one.
      const types = ['text', 'json', 'numeric', 'timestamptz']
      const probe = `set local role anon;
        create function pg_temp.probe() returns boolean language sql
          as $$ select set_config('probe.ran_as', concat_ws(' ', current_setting('probe.ran_as', true), current_user), false) is not null $$;
        ${types.map((type) => `create domain pg_temp.${type} as pg_catalog.${type} check (pg_temp.probe());`).join('\n')}
        select 'the probe runs'::text;`
      const row = entry('probe@example.com')
      const signup = insertStatement(row, signed(row))
      await db.query(`begin; ${probe} ${signup} commit;`)
      const { rows } = await db.query(
        `select current_user as owner, current_setting('probe.ran_as', true) as ran_as`,
      )
      await db.query('discard temp; reset probe.ran_as')
      expect(await stored()).toBe(1)
      // It ran where the caller named its type, as the caller, and nowhere else.
      expect(rows[0].ran_as).toBe('anon')
    })

    it('keep the private tables behind row-level security, and no function made there later is executable by PUBLIC', async () => {
      const { rows } = await db.query(
        `select c.relname, c.relrowsecurity as rls from pg_class c
          where c.relnamespace = 'waitlist_private'::regnamespace and c.relkind = 'r' order by 1`,
      )
      expect(rows).toEqual(
        ['erasures', 'secrets', 'signup_counts', 'signup_limits'].map((relname) => ({
          relname,
          rls: true,
        })),
      )
      await db.query(
        `begin; create function waitlist_private.later() returns int language sql as 'select 1'`,
      )
      try {
        const { rows: can } = await db.query(
          `select has_function_privilege('anon', 'waitlist_private.later()', 'execute') as anon`,
        )
        expect(can).toEqual([{ anon: false }])
      } finally {
        await db.query('rollback')
      }
    })

    it.runIf(open === postgres)("draw no warning from Supabase's database advisor", async () => {
      const advisors = ['db', 'advisors', '--db-url', url!, '--type', 'all', '--level', 'info']
      const stdout = await supabase([...advisors, '--output-format', 'json'])
      const found = (JSON.parse(stdout) as { results: { name: string; detail: string }[] }).results
      expect(found.map(({ name, detail }) => `${name}: ${detail}`)).toEqual([])
    })
  })
})

// The README's secret change on PostgreSQL 15, by the operator's commands, while sites on the old
// and the new secret sign up without pause; e2e/deployment.spec.ts adds the server, by next start.
describe.skipIf(unavailable)('changing the signing secret, as the README says', () => {
  const OLD = 'the-secret-the-site-signs-with-now-0123456789'
  const NEW = 'the-secret-that-replaces-it-0123456789abcdefgh'

  /** A site signing up one visitor after another with `secret`, each answer kept, until stopped. */
  async function site(url: string, name: string, secret: string) {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    const answers: string[] = []
    let running = true
    const done = (async () => {
      for (let n = 0; running; n += 1) {
        const row = entry(`${name}-${n}@example.com`)
        const headers = signed(row, { trusted: false }, secret, 0)
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
        if (!running) return
        running = false
        await done
        await client.end()
      },
    }
  }

  it("refuses no signup of either site at any step, and the old secret's once it is retired", async () => {
    const { client: owner, close, url } = await postgres()
    const env = { SUPABASE_DB_URL: url }
    const setSecret = (secret: string) =>
      cli('signing-secret --set --project local', { ...env, WAITLIST_SIGNING_SECRET: secret })
    const sites: Awaited<ReturnType<typeof site>>[] = []
    try {
      await owner.query('update waitlist_private.signup_limits set signups_per_minute = null')
      expect((await setSecret(OLD)).code).toBe(0)
      const before = await site(url, 'old', OLD)
      sites.push(before)
      await before.through(10)

      // 1. The new secret goes to the database, while the site signs with the old.
      const set = setSecret(NEW)
      await before.through(5)
      expect((await set).code).toBe(0)
      // Run twice, the step changes nothing: the old secret is still the one kept.
      expect((await setSecret(NEW)).code).toBe(0)
      const check = await cli('check', env)
      expect(check.stdout).toMatch(
        /\nSigning secret +set: only the site adds to the list; the previous secret is still accepted\n/,
      )
      expect(check.stderr).toMatch(/--retire-previous/)

      // 2. The new deployment, signing with the new secret, beside the old until it is replaced.
      const after = await site(url, 'new', NEW)
      sites.push(after)
      await Promise.all([before.through(10), after.through(10)])
      // 3. Not while a server still signs with the old secret: the command says when it last did.
      const early = await cli('signing-secret --retire-previous --project local', env)
      expect(early.code).toBe(2)
      expect(early.said.at(-1)).toMatch(
        /^waitlist: --retire-previous changed nothing: the previous secret was replaced \d{4}-\d\d-\d\d \d\d:\d\d UTC, 0 min ago, and last signed a signup \d{4}-\d\d-\d\d \d\d:\d\d UTC, 0 min ago, .*10 minutes after both, or with --force\.$/,
      )
      expect((await cli('check', env)).stdout).toMatch(
        /\nLast signed +[^\n]+, 0 min ago; the previous secret [^\n]+, 0 min ago\n/,
      )
      await before.stop()
      // The ten minutes the README says to wait, gone by.
      await owner.query(
        `update waitlist_private.secrets set previous_signed_at = now() - interval '11 minutes',
                                             replaced_at = now() - interval '11 minutes'`,
      )

      // Then the old secret retired, while the new deployment signs up.
      const retire = cli('signing-secret --retire-previous --project local', env)
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
      await owner.end()
      await close()
    }
  })
})

/** The embedded database in a folder of its own, opened as the site opens it. */
async function embedded() {
  const folder = await mkdtemp(path.join(tmpdir(), 'waitlist-rules-'))
  const database = await openFolder(folder)
  const client = new pg.Client(database.connection)
  await client.connect()
  const close = async () => {
    await database.close()
    await rm(folder, { recursive: true, force: true })
  }
  return { client, close, url: undefined }
}

/** A database as a Supabase project has it after `supabase db push`, connected as its owner. */
async function postgres() {
  const { url, drop } = await pushedDatabase()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return { client, close: drop, url }
}
