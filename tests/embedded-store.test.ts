import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { embeddedStore } from '@/lib/waitlist/embedded-store'

/** The site's store on a data folder this process owns, as `next start` has it. */
let folder: string
let store: Awaited<ReturnType<typeof embeddedStore>>
const visitor = { address: '203.0.113.7', trusted: false }
const signup = (email: string, timeoutMs = 2000) =>
  store.insert({ email, source: 'hero_section' }, visitor, AbortSignal.timeout(timeoutMs))

/** Another process's connection to the folder's socket, as `psql -h <folder> -p <port>` makes one. */
async function operator(): Promise<pg.Client> {
  const client = new pg.Client((await store.folder()).connection)
  await client.connect()
  return client
}

const storedCount = async (client: pg.Client) =>
  Number((await client.query('select count(*) from public.waitlist')).rows[0].count)

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'waitlist-store-'))
  store = await embeddedStore(folder, 10)
})
afterAll(() => rm(folder, { recursive: true, force: true }))

it('stores a signup, signed by the folder, and tells a duplicate', async () => {
  await expect(signup('ann@example.com')).resolves.toBe('inserted')
  await expect(signup('ann@example.com')).resolves.toBe('duplicate')
})

it("never runs a signup inside an operator's open transaction: it waits, and gives up at its deadline", async () => {
  const psql = await operator()
  const before = await storedCount(psql)
  await psql.query(
    "begin; insert into public.waitlist (email, source) values ('operator@example.com', 'cta_section')",
  )
  await expect(signup('waits@example.com', 500)).rejects.toThrow(/no answer in time/)
  // Had the signup run inside, the rollback would have taken it too, and the count would show it.
  await psql.query('rollback')
  expect(await storedCount(psql)).toBe(before)
  await expect(signup('after@example.com')).resolves.toBe('inserted')
  expect(await storedCount(psql)).toBe(before + 1)
  await psql.end()
})

it('lets go of a database that died under it, and the next signup opens the folder anew', async () => {
  // What an aborted PGlite does: its socket still listens, and every message sent through it fails.
  const dead = (await store.folder()).pglite!
  dead.execProtocolRawStream = () => Promise.reject(new Error('RuntimeError: Aborted()'))
  await expect(signup('lost@example.com')).rejects.toThrow()
  await expect(signup('reopened@example.com')).resolves.toBe('inserted')
  const psql = await operator()
  expect(
    (await psql.query("select email from public.waitlist where email like 're%'")).rows,
  ).toEqual([{ email: 'reopened@example.com' }])
  await psql.end()
})
