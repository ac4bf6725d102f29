import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openLocalDatabase } from '@/lib/waitlist/open-local-database'
import { startSupabaseHarness, type SupabaseHarness } from './harness/postgrest'
import { migrationsWithout, type MigrationSet } from './support/migration-sets'
import {
  embeddedOperatorStore,
  runCli,
  supabaseOperatorStore,
  type OperatorStore,
} from './support/operator-stores'
import { allowForDatabaseStarts } from './support/timeouts'

allowForDatabaseStarts()

/**
 * `npm run waitlist -- check`: whether the store's schema is what this code's
 * migrations make it, on a store set up as it should be and on stores set up
 * by older code (without the signup limits, or without the check itself).
 */
const LIMITS = '20261123120000_signup_limits.sql'
const CHECK = '20261124120000_schema_check.sql'
const CHECK_FILE = `supabase/migrations/${CHECK}`
const LIMITS_FILE = `supabase/migrations/${LIMITS}`

const check = (env: Record<string, string>) => runCli(['check'], env)

/** The report of a store as it should be, its ceiling at `ceiling`. */
const allWell = (where: string, ceiling = '600 new signups a minute from everyone together') =>
  `Database       ${where}\n` +
  `Migrations     all 4 applied, the newest ${CHECK_FILE}\n` +
  'Signup limits  in place\n' +
  `Ceiling        ${ceiling}\n`

/** A refusal: nothing on stdout, one line on stderr. */
function refused(result: { code: number; stdout: string; stderr: string }): string {
  expect(result).toMatchObject({ code: 1, stdout: '' })
  expect(result.stderr).toMatch(/^waitlist: [^\n]+\n$/)
  return result.stderr
}

let sets: MigrationSet[] = []
const without = async (...files: string[]) => {
  const set = await migrationsWithout(...files)
  sets.push(set)
  return set.dir
}
afterAll(async () => {
  await Promise.all(sets.map((set) => set.remove()))
  sets = []
})

describe('on the embedded database', () => {
  const opened: OperatorStore[] = []
  const store = async (migrationsDir?: string) => {
    const subject = await embeddedOperatorStore({ migrationsDir })
    opened.push(subject)
    return subject
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((subject) => subject.close()))
  })

  it('reports every migration applied, the limits in place and the ceiling in force', async () => {
    const subject = await store()
    const folder = subject.env.WAITLIST_DATA_DIR!
    expect(await check(subject.env)).toEqual({
      code: 0,
      stdout: allWell(`the embedded database at ${folder}`),
      stderr: '',
    })
    await subject.sql('update waitlist_private.signup_limits set signups_per_minute = 1200')
    expect((await check(subject.env)).stdout).toContain(
      'Ceiling        1200 new signups a minute from everyone together\n',
    )
    await subject.sql('update waitlist_private.signup_limits set signups_per_minute = 0')
    expect((await check(subject.env)).stdout).toContain(
      'Ceiling        none (0): new signups from everyone together are not limited\n',
    )
  })

  it('names each migration a folder made by older code lacks, changes nothing, and passes once a server has opened it', async () => {
    const subject = await store(await without(LIMITS, CHECK))
    const folder = subject.env.WAITLIST_DATA_DIR!
    expect(refused(await check(subject.env))).toBe(
      `waitlist: migrations ${LIMITS_FILE} and ${CHECK_FILE} are not applied to the embedded ` +
        `database at ${folder}, so nothing limits how fast signups are stored: start the server ` +
        `on this folder (npm run dev or npm start), which applies them as it opens it, then run this again.\n`,
    )
    const history = () =>
      subject.sql<{ version: string }>(
        'select version from supabase_migrations.schema_migrations order by version',
      )
    expect((await history()).map(({ version }) => version)).toEqual([
      '20240601000000',
      '20261122120000',
    ])

    // What the line says to do: a server of this code opens the folder.
    await (await openLocalDatabase(folder)).close()
    expect((await check(subject.env)).code).toBe(0)
  })

  it('names the check migration when only it is missing', async () => {
    const subject = await store(await without(CHECK))
    expect(refused(await check(subject.env))).toMatch(
      new RegExp(`^waitlist: migration ${CHECK_FILE} is not applied to the embedded database at `),
    )
  })

  it('says the limits are not in place when their trigger is gone, though recorded as applied', async () => {
    const subject = await store()
    await subject.sql('drop trigger limit_signups on public.waitlist')
    expect(refused(await check(subject.env))).toContain(
      `the signup limits are not in place on the embedded database at ${subject.env.WAITLIST_DATA_DIR}, ` +
        `so nothing limits how fast signups are stored: ${LIMITS_FILE} is recorded as applied`,
    )
  })

  it('says so when there is no database in the folder', async () => {
    const result = await check({ WAITLIST_DATA_DIR: '/nonexistent/waitlist' })
    expect(refused(result)).toContain('There is no embedded database at /nonexistent/waitlist')
  })

  it('runs as `npm run waitlist -- check`', async () => {
    const subject = await store()
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'waitlist', '--', 'check'], {
      env: { ...process.env, ...subject.env, SUPABASE_URL: '', NEXT_PUBLIC_SUPABASE_URL: '' },
    })
    expect(stdout).toBe(allWell(`the embedded database at ${subject.env.WAITLIST_DATA_DIR}`))
  })
})

describe('on Supabase (the local stand-in), with the service key', () => {
  const harnesses: SupabaseHarness[] = []
  const project = async (migrationsDir?: string) => {
    const harness = await startSupabaseHarness({ migrationsDir })
    harnesses.push(harness)
    const subject = await supabaseOperatorStore(harness)
    return { harness, subject, where: `Supabase at ${new URL(harness.url).host}` }
  }
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((harness) => harness.close()))
  })

  it('reports all well in one call to the check function', async () => {
    const { harness, subject, where } = await project()
    expect(await check(subject.env)).toEqual({ code: 0, stdout: allWell(where), stderr: '' })
    expect(harness.requests).toMatchObject([
      {
        method: 'POST',
        url: '/rest/v1/rpc/waitlist_schema_check',
        headers: { apikey: harness.serviceRoleKey },
      },
    ])
    expect(harness.requests).toHaveLength(1)
  })

  it('names the limits migration when a project lacks it, with what to do', async () => {
    const { subject, where } = await project(await without(LIMITS))
    // Older than the newest applied: `supabase db push` applies it only when told to include all.
    expect(refused(await check(subject.env))).toBe(
      `waitlist: migration ${LIMITS_FILE} is not applied to ${where}, so nothing limits how fast ` +
        'signups are stored: apply them with `supabase db push --include-all`, then run this again.\n',
    )
  })

  it.each([
    ['without the check (set up before it)', [CHECK]],
    ['without the check or the limits', [LIMITS, CHECK]],
  ])('answers a project %s plainly, not with PGRST202', async (_name, leftOut) => {
    const { subject, where } = await project(await without(...leftOut))
    expect(refused(await check(subject.env))).toBe(
      `waitlist: migration ${CHECK_FILE} is not applied to ${where}, so nothing more can be read ` +
        'of it (older migrations may be missing too): apply them with `supabase db push`, then run this again.\n',
    )
  })

  it('says the limits are not in place when their trigger is disabled', async () => {
    const { subject, where } = await project()
    await subject.sql('alter table public.waitlist disable trigger limit_signups')
    expect(refused(await check(subject.env))).toContain(
      `the signup limits are not in place on ${where}, so nothing limits how fast signups are stored`,
    )
  })

  it('says when the project records no migrations, as after files run by hand', async () => {
    const { subject, where } = await project()
    await subject.sql('delete from supabase_migrations.schema_migrations')
    expect(refused(await check(subject.env))).toContain(
      `waitlist: ${where} records no migration as applied (supabase_migrations.schema_migrations is empty)`,
    )
    await subject.sql('drop schema supabase_migrations cascade')
    const line = refused(await check(subject.env))
    expect(line).toContain('(supabase_migrations.schema_migrations is missing)')
    expect(line).toContain(
      'record each with `supabase migration repair --status applied <version>` ' +
        '(20240601000000, 20261122120000, 20261123120000, 20261124120000)',
    )
  })

  it('says when the project records a migration this code does not have', async () => {
    const { subject, where } = await project()
    await subject.sql(
      "insert into supabase_migrations.schema_migrations (version) values ('20991231000000')",
    )
    expect(refused(await check(subject.env))).toContain(
      `waitlist: ${where} records migration 20991231000000 as applied, which supabase/migrations here does not have`,
    )
  })
})

describe('the check function', () => {
  let harness: SupabaseHarness
  beforeAll(async () => {
    harness = await startSupabaseHarness()
  })
  afterAll(() => harness.close())

  const call = (name: string, key: string) =>
    harness.rest(`rpc/${name}`, { method: 'POST', key, body: '{}' })

  it('is refused to the public key', async () => {
    const answer = await call('waitlist_schema_check', harness.anonKey)
    expect(answer.status).toBe(401)
    expect(await answer.json()).toMatchObject({ code: '42501' })
  })

  it('replaced the ceiling the public key could read', async () => {
    for (const key of [harness.anonKey, harness.serviceRoleKey]) {
      const answer = await call('waitlist_signup_ceiling', key)
      expect(answer.status).toBe(404)
      expect(await answer.json()).toMatchObject({ code: 'PGRST202' })
    }
  })
})
