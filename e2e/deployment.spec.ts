import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { notices, statusText } from '../lib/site'
import {
  startSupabaseHarness,
  TEST_SIGNING_SECRET,
  type SupabaseHarness,
} from '../tests/harness/postgrest'
import { noSupabase } from '../tests/support/environments'
import { postSignup, readSignupForm, type SignupForm } from '../tests/support/form-post'
import { startNextServer, STORE_OPEN, type NextServer } from '../tests/support/next-server'
import { toastsShown, uniqueEmail, waitlistForm } from './waitlist-page'

// `next start` servers of one build on a Supabase stand-in with a signing secret, as after the
// README's deploy steps. The database's clock stands still, so every post below is in one minute.
test.describe.configure({ mode: 'serial', timeout: 240_000 })

let harness: SupabaseHarness
const servers: NextServer[] = []

async function site(env: Record<string, string>): Promise<NextServer> {
  const server = await startNextServer({
    readyOutput: STORE_OPEN,
    env: {
      ...noSupabase,
      SUPABASE_URL: harness.url,
      SUPABASE_ANON_KEY: harness.anonKey,
      WAITLIST_SIGNING_SECRET: TEST_SIGNING_SECRET,
      ...env,
    },
  })
  servers.push(server)
  return server
}

const stored = async (pattern: string) =>
  (
    await harness.db.query<{ n: number }>(
      'select count(*)::int as n from public.waitlist where email like $1',
      [pattern],
    )
  ).rows[0]!.n

async function sendAll(
  form: SignupForm,
  count: number,
  tag: string,
  client: (i: number) => string,
) {
  const outcomes: string[] = []
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) =>
      postSignup(form, {
        fields: [['email', `${tag}-${i + j}@example.com`]],
        headers: { 'x-forwarded-for': client(i + j) },
      }),
    )
    outcomes.push(
      ...(await Promise.all(batch)).map(({ outcome, status }) =>
        status === 200 ? outcome : `HTTP ${status}`,
      ),
    )
  }
  return outcomes
}

test.beforeAll(async () => {
  harness = await startSupabaseHarness({ signingSecret: TEST_SIGNING_SECRET })
  await harness.db
    .exec(`create or replace function waitlist_private.signup_clock() returns timestamptz language sql
                         set search_path = pg_catalog, pg_temp as $$ select '2030-01-01T12:00:00Z'::timestamptz $$`)
})
test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  await harness?.close()
})

test('from start-up through a signup from each form, the server sends the data service nothing but the signed inserts', async ({
  page,
}) => {
  harness.requests.length = 0
  const server = await site({})
  await page.goto(`${server.url}/`)
  const welcomes = await toastsShown(page, notices.joined.title)
  const sent: { email: string; source: string }[] = []
  for (const [name, source] of [
    ['hero', 'hero_section'],
    ['cta', 'cta_section'],
  ] as const) {
    const form = waitlistForm(page, name)
    const email = uniqueEmail(name)
    await form.join(email)
    await expect(form.status).toHaveText(statusText(notices.joined))
    await expect.poll(welcomes).toBe(sent.length + 1)
    sent.push({ email, source })
  }
  expect(harness.requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
    'POST /rest/v1/waitlist',
    'POST /rest/v1/waitlist',
  ])
  expect(harness.requests.map(({ body }) => JSON.parse(body))).toEqual(sent)
  for (const { headers } of harness.requests) {
    expect(headers.apikey).toBe(harness.anonKey)
    expect(headers['x-waitlist-signature']).toMatch(/^\d+\.[01]\.[0-9a-f]{64}$/)
  }
})

test('a flood fills the ceiling, fresh visitors behind a trusted proxy are still welcomed, made-up clients are not', async () => {
  await harness.db.exec(
    'delete from waitlist_private.signup_counts; update waitlist_private.signup_limits set signups_per_minute = 100',
  )
  const trusted = await readSignupForm(`${(await site({ WAITLIST_TRUSTED_PROXY: '1' })).url}/`)
  const open = await readSignupForm(`${(await site({})).url}/`)
  expect(await sendAll(trusted, 100, 'flood', (i) => `10.0.0.1, 198.18.0.${i}`)).toEqual(
    Array(100).fill('joined'),
  )
  // The ceiling is full: each fresh visitor's first signup in 60 seconds is welcomed all the same, a second is not.
  expect(await sendAll(trusted, 3, 'fresh', (i) => `203.0.113.${i + 10}`)).toEqual([
    'joined',
    'joined',
    'joined',
  ])
  expect(await sendAll(trusted, 1, 'fresh-again', () => '203.0.113.10')).toEqual(['error'])
  // Without a declared proxy the client writes X-Forwarded-For itself: 900 made-up clients store nothing more.
  expect(await sendAll(open, 900, 'made-up', (i) => `198.19.${i >> 8}.${i & 255}`)).toEqual(
    Array(900).fill('error'),
  )
  expect(await stored('made-up-%')).toBe(0)
  // Refused signups counted nothing: the ceiling's count is the flood's.
  expect(
    (
      await harness.db.query<{ n: number }>(
        "select admitted as n from waitlist_private.signup_counts where counted_for = ''",
      )
    ).rows[0]!.n,
  ).toBe(100)
})

test('a server with neither Supabase nor a folder named says so as it starts, naming both ways out, and fails every signup', async () => {
  const server = await startNextServer({
    env: { ...noSupabase, WAITLIST_DATA_DIR: '' },
  })
  servers.push(server)
  await server.waitForOutput(
    /configuration error: this production server has nowhere to keep the list: set NEXT_PUBLIC_SUPABASE_URL .* or WAITLIST_DATA_DIR/,
  )
  const form = await readSignupForm(`${server.url}/`)
  for (const email of ['nowhere-1@example.com', 'nowhere-2@example.com']) {
    await expect(postSignup(form, { fields: [['email', email]] })).resolves.toMatchObject({
      outcome: 'error',
    })
  }
  expect(server.output().match(/configuration error/g)).toHaveLength(1)
  expect(server.output()).not.toContain('signups go to')
})

test("a server on Supabase loads none of the embedded database's packages through its first signup; one on a folder loads them all", async () => {
  const embedded = ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'pg']
  const logPackages = { NODE_OPTIONS: `--import ${path.resolve('tests/support/log-packages.ts')}` }
  // The flood filled the ceiling of the minute the database's clock stands in.
  await harness.db.exec('delete from waitlist_private.signup_counts')
  const folder = await mkdtemp(path.join(os.tmpdir(), 'deployment-folder-'))
  try {
    const onSupabase = await site(logPackages)
    const onFolder = await startNextServer({
      readyOutput: STORE_OPEN,
      env: { ...noSupabase, ...logPackages, WAITLIST_DATA_DIR: folder },
    })
    servers.push(onFolder)
    for (const server of [onSupabase, onFolder]) {
      const form = await readSignupForm(`${server.url}/`)
      await expect(
        postSignup(form, { fields: [['email', uniqueEmail('packages')]] }),
      ).resolves.toMatchObject({ outcome: 'joined' })
    }
    const loaded = (server: NextServer) =>
      [...server.output().matchAll(/^\[package\] (.+)$/gm)].map(([, name]) => name)
    expect(loaded(onFolder)).toEqual(expect.arrayContaining(embedded))
    expect(loaded(onSupabase)).toContain('next')
    expect(loaded(onSupabase).filter((name) => embedded.includes(name!))).toEqual([])
    await onFolder.stop()
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
})
