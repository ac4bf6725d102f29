import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openFolder } from '@/lib/waitlist/data-folder'
import { lit } from '@/lib/waitlist/embedded-store'
import { visitorHeaders, type Visitor } from '@/lib/waitlist/visitor'
import { postgresUnavailable, pushedDatabase } from './support/postgres'

/**
 * The rules every way in meets, kept by the table and its triggers
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

describe.each([
  ['the embedded database', embedded],
  ['PostgreSQL 15', unavailable ? undefined : postgres],
] as const)('on %s', (_name, open) => {
  let db: pg.Client
  let close: (() => Promise<void>) | undefined

  type Entry = { email: string; source: 'hero_section' | 'cta_section' }
  const entry = (email: string): Entry => ({ email, source: 'hero_section' })

  /** An insert as `role`, with `headers` where PostgREST puts them; the SQLSTATE it fails with, or 'ok'. */
  async function insertAs(
    rows: Entry[],
    headers: Record<string, string> = {},
    role = 'anon',
  ): Promise<string> {
    const values = rows.map((row) => `(${lit(row.email)}, ${lit(row.source)})`).join(', ')
    try {
      await db.query(
        `${role === 'owner' ? '' : `set local role ${role};`} select set_config('request.headers', ${lit(JSON.stringify(headers))}, true);
       insert into public.waitlist (email, source) values ${values}`,
      )
      return 'ok'
    } catch (error) {
      return (error as { code: string }).code
    }
  }

  const signed = (
    row: Entry,
    visitor: Visitor = { address: '203.0.113.1', trusted: true },
    perMinute = 10,
  ) => visitorHeaders(row, visitor, { perMinute, hashSecret: SECRET, signingSecret: SECRET })

  const stored = async (pattern = '%') =>
    Number(
      (await db.query(`select count(*) from public.waitlist where email like ${lit(pattern)}`))
        .rows[0].count,
    )

  async function setSecret(secret: string | null) {
    await db.query(
      `update waitlist_private.secrets set signing_secret = ${secret === null ? 'null' : lit(secret)}`,
    )
  }

  beforeAll(async () => {
    if (!open) return
    ;({ client: db, close } = await open())
    // The minute the limits count stands still, and moves only when a test says so.
    await db.query(`create or replace function waitlist_private.signup_clock() returns timestamptz language sql
                  set search_path = '' as $$ select '2030-01-01T12:00:00Z'::timestamptz $$`)
  })
  afterAll(async () => {
    await db?.end()
    await close?.()
  })
  beforeEach(async (context) => {
    if (!open) return context.skip()
    await db.query('delete from waitlist_private.recent_signups; delete from public.waitlist')
    await db.query('update waitlist_private.signup_limits set signups_per_minute = 600')
    await setSecret(null)
  })

  describe('the public key', () => {
    it('may add an address and its source, once in any case, and nothing else', async () => {
      expect(await insertAs([entry('ann@example.com')])).toBe('ok')
      expect(await insertAs([entry('ann@example.com')])).toBe('23505')
      await db.query(
        "insert into public.waitlist (email, source) values ('bob@example.com', 'cta_section')",
      )
      expect(await insertAs([entry('BOB@example.com'.toLowerCase())])).toBe('23505')
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

    it("meets the table's rules: the HTML standard's address, lower case, 254 characters, a known form", async () => {
      expect(await insertAs([entry('first!last@examplehost')])).toBe('ok')
      for (const email of [
        'Ann@example.com',
        'a b@example.com',
        'ann@exa_mple.com',
        `${'a'.repeat(250)}@x.io`,
      ]) {
        expect(await insertAs([entry(email)]), email).toBe('23514')
      }
      expect(
        await insertAs([{ email: 'ann@example.com', source: 'footer' as 'hero_section' }]),
      ).toBe('23514')
    })

    it('adds one row at a time: a batch stores nothing, whatever is in it', async () => {
      await db.query(
        "insert into public.waitlist (email, source) values ('listed@example.com', 'hero_section')",
      )
      expect(await insertAs([entry('one@example.com'), entry('two@example.com')])).toBe('42501')
      expect(await stored('%o@example.com')).toBe(0)
      expect(
        await insertAs([entry('one@example.com'), entry('two@example.com')], {}, 'owner'),
      ).toBe('ok')
    })
  })

  describe('the limits', () => {
    it("hold a client to its allowance, and everyone to the ceiling; the owner's imports to neither", async () => {
      const client = { 'x-waitlist-client': 'c'.repeat(43), 'x-waitlist-allowance': '2' }
      const answers = []
      for (const n of [1, 2, 3])
        answers.push(await insertAs([entry(`client-${n}@example.com`)], client))
      expect(answers).toEqual(['ok', 'ok', 'PT429'])
      await db.query('update waitlist_private.signup_limits set signups_per_minute = 3')
      expect(await insertAs([entry('fills@example.com')])).toBe('ok')
      expect(await insertAs([entry('over@example.com')])).toBe('PT429')
      expect(await insertAs([entry('import@example.com')], {}, 'owner')).toBe('ok')
      // Only what was admitted counts: refused inserts left nothing behind.
      expect(
        (await db.query('select count(*)::int as n from waitlist_private.recent_signups')).rows[0]
          .n,
      ).toBe(3)
    })

    it("admit a trusted, signed client's first signup of the minute over a full ceiling, and no more", async () => {
      await setSecret(SECRET)
      await db.query('update waitlist_private.signup_limits set signups_per_minute = 2')
      for (const n of [1, 2])
        expect(
          await insertAs(
            [entry(`flood-${n}@example.com`)],
            signed(entry(`flood-${n}@example.com`), { address: '198.51.100.1', trusted: true }),
          ),
        ).toBe('ok')
      const fresh = (email: string, visitor: Visitor) =>
        insertAs([entry(email)], signed(entry(email), visitor))
      expect(await fresh('fresh@example.com', { address: '203.0.113.50', trusted: true })).toBe(
        'ok',
      )
      expect(
        await fresh('fresh-again@example.com', { address: '203.0.113.50', trusted: true }),
      ).toBe('PT429')
      expect(
        await fresh('untrusted@example.com', { address: '203.0.113.51', trusted: false }),
      ).toBe('PT429')
      await setSecret(null)
      // Unsigned, a claim of trust is worth nothing.
      const claimed = {
        ...signed(entry('claims@example.com'), { address: '203.0.113.52', trusted: true }),
      }
      expect(await insertAs([entry('claims@example.com')], claimed)).toBe('PT429')
    })
  })

  describe('with a signing secret set', () => {
    beforeEach(() => setSecret(SECRET))

    it("stores the site's signed insert, and refuses unsigned, altered, stale or foreign ones before any limit counts them", async () => {
      expect(await insertAs([entry('site@example.com')], signed(entry('site@example.com')))).toBe(
        'ok',
      )
      const headers = signed(entry('ann@example.com'))
      expect(await insertAs([entry('ann@example.com')])).toBe('42501')
      expect(await insertAs([entry('other@example.com')], headers)).toBe('42501')
      expect(
        await insertAs([entry('ann@example.com')], { ...headers, 'x-waitlist-allowance': '999' }),
      ).toBe('42501')
      const stale = headers['x-waitlist-signature']!.replace(/^\d+/, (t) => String(Number(t) - 600))
      expect(
        await insertAs([entry('ann@example.com')], { ...headers, 'x-waitlist-signature': stale }),
      ).toBe('42501')
      const foreign = visitorHeaders(
        entry('ann@example.com'),
        { address: '203.0.113.1', trusted: true },
        {
          perMinute: 10,
          hashSecret: 'x',
          signingSecret: 'another-secret-of-thirty-two-characters',
        },
      )
      expect(await insertAs([entry('ann@example.com')], foreign)).toBe('42501')
      expect(await insertAs([entry('ann@example.com'), entry('bob@example.com')], headers)).toBe(
        '42501',
      )
      expect(await stored()).toBe(1)
      expect(
        (await db.query('select count(*)::int as n from waitlist_private.recent_signups')).rows[0]
          .n,
      ).toBe(1)
    })

    it('is set by the owner, never read or set by the public roles', async () => {
      await expect(
        db.query(
          `set local role anon; select waitlist_private.set_signing_secret('${'x'.repeat(40)}')`,
        ),
      ).rejects.toMatchObject({ code: '42501' })
      await expect(
        db.query('set local role anon; select signing_secret from waitlist_private.secrets'),
      ).rejects.toMatchObject({ code: '42501' })
      await db.query(
        `set local role service_role; select waitlist_private.set_signing_secret('${'y'.repeat(40)}')`,
      )
      expect(
        (await db.query('select signing_secret from waitlist_private.secrets')).rows[0]
          .signing_secret,
      ).toBe('y'.repeat(40))
    })
  })

  it.runIf(open === postgres)(
    'let two inserts at once never both take the last place under the ceiling',
    async () => {
      await db.query('update waitlist_private.signup_limits set signups_per_minute = 5')
      const url = (db as unknown as { connectionParameters: { connectionString?: string } })
        .connectionParameters
      const racers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const client = new pg.Client(url)
          await client.connect()
          return client
        }),
      )
      const answers = await Promise.all(
        racers.map(async (client, i) => {
          try {
            await client.query(
              `set role anon; insert into public.waitlist (email, source) values ('race-${i}@example.com', 'hero_section')`,
            )
            return 'ok'
          } catch (error) {
            return (error as { code: string }).code
          } finally {
            await client.end()
          }
        }),
      )
      expect(answers.filter((answer) => answer === 'ok')).toHaveLength(5)
      expect(await stored('race-%')).toBe(5)
    },
  )
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
