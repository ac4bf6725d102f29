import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openLocalDatabase } from '@/lib/waitlist/open-local-database'
import { startSupabaseHarness, type SupabaseHarness } from './harness/postgrest'
import {
  embeddedOperatorStore,
  runCli,
  supabaseOperatorStore,
  type OperatorStore,
} from './support/operator-stores'

/** The rows both stores are given, in signup order, with awkward addresses on purpose. */
const SIGNUPS = [
  ['anna@example.com', 'hero_section', '2024-05-01T10:00:00+00:00'],
  ['=cmd|calc@example.com', 'cta_section', '2024-05-01T10:00:01+00:00'],
  ['o"neil,jr@example.com', 'hero_section', '2024-05-01T10:00:02.5+00:00'],
  ['ben@example.com', 'cta_section', '2024-05-02T08:30:00+00:00'],
  ['cleo@example.com', 'hero_section', '2024-05-03T09:15:00+00:00'],
] as const

const EXPECTED_CSV =
  'email,source,created_at\r\n' +
  'anna@example.com,hero_section,2024-05-01T10:00:00+00:00\r\n' +
  `"'=cmd|calc@example.com",cta_section,2024-05-01T10:00:01+00:00\r\n` +
  '"o""neil,jr@example.com",hero_section,2024-05-01T10:00:02.5+00:00\r\n' +
  'ben@example.com,cta_section,2024-05-02T08:30:00+00:00\r\n' +
  'cleo@example.com,hero_section,2024-05-03T09:15:00+00:00\r\n'

const EXPECTED_JSON = SIGNUPS.map(([email, source, created_at]) => ({ email, source, created_at }))

const run = (argv: string[], env: Record<string, string>, pageSize?: number) =>
  runCli(argv, env, { pageSize })

describe('against the embedded database', () => {
  let subject: OperatorStore
  let dir: string
  let env: Record<string, string>

  beforeAll(async () => {
    subject = await embeddedOperatorStore()
    await subject.seed(SIGNUPS)
    env = subject.env
    dir = path.dirname(env.WAITLIST_DATA_DIR!)
  })
  afterAll(() => subject.close())

  it('counts the list', async () => {
    const result = await run(['count'], env)
    expect(result).toMatchObject({ code: 0, stdout: '5\n' })
    expect(result.stderr).toContain(`the embedded database at ${env.WAITLIST_DATA_DIR}`)
  })

  it('exports CSV in signup order, escaped, across pages', async () => {
    expect(await run(['export'], env, 2)).toMatchObject({ code: 0, stdout: EXPECTED_CSV })
  })

  it('exports JSON', async () => {
    const result = await run(['export', '--format', 'json'], env, 2)
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED_JSON)
  })

  it('writes to a file with --output, and never over an existing one', async () => {
    const file = path.join(dir, 'list.csv')
    expect((await run(['export', '--output', file], env)).code).toBe(0)
    expect(await readFile(file, 'utf8')).toBe(EXPECTED_CSV)
    expect(await run(['export', '--output', file], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: `waitlist: ${file} already exists, and export never writes over a file: name a new one.\n`,
    })
    expect(await readFile(file, 'utf8')).toBe(EXPECTED_CSV)
  })

  it('reads while a server holds the folder, and leaves that server working', async () => {
    const server = await openLocalDatabase(env.WAITLIST_DATA_DIR!)
    try {
      const result = await run(['count'], env)
      expect(result.stdout).toBe('5\n')
      expect(result.stderr).toMatch(/read from a copy.*stop it for an exact list/)
      await server.db.query(
        "insert into public.waitlist (email, source) values ('late@example.com', 'cta_section')",
      )
      expect((await server.db.query('select 1 from public.waitlist')).rows).toHaveLength(6)
    } finally {
      await server.db.query("delete from public.waitlist where email = 'late@example.com'")
      await server.close()
    }
  })

  it('says so when there is no database in the folder', async () => {
    const missing = path.join(dir, 'nothing-here')
    const result = await run(['count'], { WAITLIST_DATA_DIR: missing })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`There is no embedded database at ${missing}`)
  })

  it('refuses an in-memory list, which only its own server can see', async () => {
    const result = await run(['count'], { WAITLIST_DATA_DIR: 'memory://' })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/WAITLIST_DATA_DIR is memory:\/\//)
  })

  it('runs as `npm run waitlist`, where `server-only` must resolve to its empty export', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'waitlist', '--', 'count'], {
      env: { ...process.env, ...env, SUPABASE_URL: '', NEXT_PUBLIC_SUPABASE_URL: '' },
    })
    expect(stdout).toBe('5\n')
  })
})

describe('against Supabase (the local stand-in), with the service key', () => {
  let harness: SupabaseHarness
  let env: Record<string, string>

  beforeAll(async () => {
    // Pages smaller than the ones asked for, as with a low db-max-rows.
    harness = await startSupabaseHarness({ maxRows: 3 })
    const subject = await supabaseOperatorStore(harness)
    await subject.seed(SIGNUPS)
    env = subject.env
  })
  afterAll(() => harness.close())
  afterEach(() => void harness.requests.splice(0))

  it('counts the list with one HEAD request', async () => {
    const result = await run(['count'], env)
    expect(result).toMatchObject({ code: 0, stdout: '5\n' })
    expect(result.stderr).toContain(`Supabase at ${new URL(harness.url).host}`)
    expect(harness.requests.map((r) => r.method)).toEqual(['HEAD'])
    expect(harness.requests[0]!.headers.prefer).toContain('count=exact')
  })

  it('exports CSV page by page in id order, even when the server sends fewer rows than asked', async () => {
    expect(await run(['export'], env, 4)).toMatchObject({ code: 0, stdout: EXPECTED_CSV })
    const asked = harness.requests.map((r) => new URL(r.url, harness.url).searchParams)
    expect(asked.map((p) => [p.get('offset'), p.get('limit'), p.get('order')])).toEqual([
      ['0', '4', 'id.asc'],
      ['3', '4', 'id.asc'],
      ['5', '4', 'id.asc'],
    ])
  })

  it('exports JSON the same as the embedded database does', async () => {
    const result = await run(['export', '--format=json'], env)
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED_JSON)
  })

  it.each([
    ['count'],
    ['export'],
    ['stats'],
    ['remove', 'anna@example.com'],
    ['remove', '--dry-run', 'anna@example.com'],
    ['import', 'tests/bad-input-corpus.ts'],
    ['check'],
  ])('refuses the public key for %s, before any request', async (...argv) => {
    for (const keys of [
      { SUPABASE_ANON_KEY: harness.anonKey } as Record<string, string>,
      { SUPABASE_SERVICE_ROLE_KEY: harness.anonKey },
      { SUPABASE_SECRET_KEY: 'sb_publishable_abc' },
    ]) {
      const result = await run(argv, { SUPABASE_URL: harness.url, ...keys })
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/SUPABASE_SERVICE_ROLE_KEY|SUPABASE_SECRET_KEY/)
    }
    expect(harness.requests).toHaveLength(0)
    expect((await harness.db.query('select 1 from public.waitlist')).rows).toHaveLength(5)
  })

  it('names the service-key variables when only the public key is set', async () => {
    const result = await run(['count'], {
      SUPABASE_URL: harness.url,
      SUPABASE_ANON_KEY: harness.anonKey,
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/SUPABASE_SERVICE_ROLE_KEY or SUPABASE_SECRET_KEY/)
    expect(harness.requests).toHaveLength(0)
  })

  it('refuses the public key given as the service key', async () => {
    const result = await run(['count'], {
      SUPABASE_URL: harness.url,
      SUPABASE_SECRET_KEY: harness.anonKey,
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/SUPABASE_SECRET_KEY holds the public key/)
  })

  it('reports a refusal by the server', async () => {
    harness.setFault({
      kind: 'answer',
      status: 401,
      body: JSON.stringify({ message: 'Invalid API key', hint: '' }),
    })
    try {
      const result = await run(['export'], env)
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/Supabase refused to read the list \(HTTP 401.*Invalid API key/)
    } finally {
      harness.setFault(undefined)
    }
  })
})
