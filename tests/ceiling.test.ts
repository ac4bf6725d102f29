import { access, readFile } from 'node:fs/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { InsertResult } from '@/lib/waitlist/store'
import { startSupabaseHarness, type SupabaseHarness } from './harness/postgrest'
import { actionOnMemoryStore, freshAction, type JoinAction } from './support/fresh-server'
import { fromClient } from './support/request'
import { holdSignupClock } from './support/signup-limits'

vi.mock('next/headers', async () => ({
  headers: (await import('./support/request')).requestHeaders,
}))

/**
 * The limits the database keeps, met through the server action: the ceiling
 * for everyone together, which the embedded store takes from
 * WAITLIST_SIGNUPS_PER_MINUTE_CEILING at start-up, and the allowance of one
 * visitor, which the action asks for under a keyed hash of their address.
 */
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

let clients = 0

function fromNewClient(): void {
  clients += 1
  fromClient(`198.51.100.${clients % 250}, forged-${clients}`)
}

async function post(joinWaitlist: JoinAction, email: string) {
  const form = new FormData()
  form.set('source', 'hero_section')
  form.set('email', email)
  return joinWaitlist({ status: 'idle' }, form)
}

/** Posts `count` signups, each from a new client, and returns their statuses. */
async function flood(joinWaitlist: JoinAction, count: number, tag: string): Promise<string[]> {
  const statuses: string[] = []
  for (let i = 0; i < count; i += 1) {
    fromNewClient()
    statuses.push((await post(joinWaitlist, `${tag}-${i}@example.com`)).status)
  }
  return statuses
}

async function serverWith(env: Record<string, string>) {
  const info = vi.spyOn(console, 'info').mockImplementation(() => {})
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const { joinWaitlist, store } = await actionOnMemoryStore(env)
  const insert = vi.spyOn(store, 'insert')
  return {
    joinWaitlist,
    store,
    insert,
    /** What the store answered each insert it was asked for. */
    answers: (): Promise<InsertResult[]> =>
      Promise.all(insert.mock.results.map((result) => result.value as Promise<InsertResult>)),
    warnings: () => warn.mock.calls.map(([line]) => String(line)),
    /** What the server said at start-up of the ceiling its database keeps. */
    ceilingLine: () =>
      info.mock.calls.map(([line]) => String(line)).find((line) => line.includes('admits')),
  }
}

describe('the ceiling, on the embedded database', () => {
  it('is taken from WAITLIST_SIGNUPS_PER_MINUTE_CEILING at start-up: the database admits that many, then refuses, keeping the address', async () => {
    const { joinWaitlist, answers, warnings, ceilingLine } = await serverWith({
      WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '5',
    })
    expect(ceilingLine()).toContain('at most 5 new signups a minute from everyone together')
    expect(await flood(joinWaitlist, 5, 'early')).toEqual(Array(5).fill('joined'))

    fromNewClient()
    await expect(post(joinWaitlist, 'Late.Comer@Example.com')).resolves.toMatchObject({
      status: 'rate_limited',
      email: 'Late.Comer@Example.com',
    })
    expect(await flood(joinWaitlist, 20, 'late')).toEqual(Array(20).fill('rate_limited'))
    // Each refusal came from the database, not from this process.
    expect(await answers()).toEqual([
      ...Array(5).fill('inserted'),
      ...Array(21).fill('over_ceiling'),
    ])

    // One line as the burst starts; none per refused post.
    expect(warnings()).toEqual([
      expect.stringMatching(/signups refused: over the database's ceiling on new signups a minute/),
    ])
  })

  it('is off at 0', async () => {
    const { joinWaitlist, warnings, ceilingLine } = await serverWith({
      WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '0',
    })
    expect(ceilingLine()).toContain('new signups with no ceiling (set to 0)')
    expect(await flood(joinWaitlist, 40, 'open')).toEqual(Array(40).fill('joined'))
    expect(warnings()).toEqual([])
  })

  it("is the database's own (600) when unset", async () => {
    const { ceilingLine } = await serverWith({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '' })
    expect(ceilingLine()).toContain('at most 600 new signups a minute from everyone together')
  })

  it("refuses a client over this process's first line before the database is asked", async () => {
    const { joinWaitlist, insert } = await serverWith({ WAITLIST_RATE_LIMIT_PER_MINUTE: '2' })
    fromClient('203.0.113.66')
    const statuses: string[] = []
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await post(joinWaitlist, `one-${i}@example.com`)).status)
    }
    expect(statuses).toEqual(['joined', 'joined', ...Array(4).fill('rate_limited')])
    expect(insert).toHaveBeenCalledTimes(2)
  })
})

describe("the visitor's allowance", () => {
  it('names the visitor to the database by a keyed hash of the address, never the address', async () => {
    const { joinWaitlist, insert } = await serverWith({ WAITLIST_RATE_LIMIT_PER_MINUTE: '7' })
    for (const address of ['203.0.113.7', '203.0.113.7', '203.0.113.8']) {
      fromClient(address)
      await post(joinWaitlist, `${crypto.randomUUID()}@example.com`)
    }
    const clients = insert.mock.calls.map(([, client]) => client)
    expect(clients.map((client) => client?.perMinute)).toEqual([7, 7, 7])
    const [first, again, other] = clients.map((client) => client?.key ?? '')
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(first).not.toContain('203.0.113')
    expect(again).toBe(first)
    expect(other).not.toBe(first)
  })

  it('is not asked for at 0: the database applies only its ceiling', async () => {
    const { joinWaitlist, insert } = await serverWith({ WAITLIST_RATE_LIMIT_PER_MINUTE: '0' })
    fromNewClient()
    await expect(post(joinWaitlist, 'ann@example.com')).resolves.toMatchObject({ status: 'joined' })
    expect(insert).toHaveBeenCalledExactlyOnceWith(
      { email: 'ann@example.com', source: 'hero_section' },
      undefined,
    )
  })
})

describe('two servers on one Supabase database (the stand-in)', () => {
  let harness: SupabaseHarness
  beforeAll(async () => {
    harness = await startSupabaseHarness()
    await holdSignupClock(harness.db)
  })
  afterAll(() => harness.close())

  const server = (env: Record<string, string> = {}) => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    return freshAction({
      SUPABASE_URL: harness.url,
      SUPABASE_ANON_KEY: harness.anonKey,
      WAITLIST_RATE_LIMIT_PER_MINUTE: '3',
      ...env,
    })
  }

  it("hold one visitor to one allowance between them: each server's own count never sees it", async () => {
    const first = await server()
    const second = await server()
    fromClient('203.0.113.21')
    const statuses: string[] = []
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await post(first, `both-a-${i}@example.com`)).status)
      statuses.push((await post(second, `both-b-${i}@example.com`)).status)
    }
    // Three posts each: within either server's own limit of three, yet three stored in all.
    expect(statuses).toEqual(['joined', 'joined', 'joined', ...Array(3).fill('rate_limited')])
  })

  it('say at start-up, asking the database nothing, that WAITLIST_SIGNUPS_PER_MINUTE_CEILING changes nothing there, and how to change it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    harness.requests.splice(0)
    await freshAction({
      SUPABASE_URL: harness.url,
      SUPABASE_ANON_KEY: harness.anonKey,
      WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '250',
    })
    const { getWaitlistStore } = await import('@/lib/waitlist/choose-store')
    await getWaitlistStore()
    expect(info.mock.calls.map(([line]) => String(line))).toEqual([
      expect.stringMatching(
        /signups go to Supabase at 127\.0\.0\.1:\d+ \(SUPABASE_URL, SUPABASE_ANON_KEY\)$/,
      ),
      expect.stringContaining(
        "signups meet the database's limits: 10 a minute from each visitor (WAITLIST_RATE_LIMIT_PER_MINUTE), " +
          'and its own ceiling on new signups from everyone together, which `npm run waitlist -- check` shows',
      ),
    ])
    expect(warn.mock.calls.map(([line]) => String(line))).toEqual([
      expect.stringContaining(
        'WAITLIST_SIGNUPS_PER_MINUTE_CEILING=250 has no effect on Supabase: the ceiling is kept by the database. ' +
          'Change it there, at once and without a redeploy, by running ' +
          '`update waitlist_private.signup_limits set signups_per_minute = 250;` in the SQL editor ' +
          '(see docs/abuse-faults-and-load.md); `npm run waitlist -- check` shows the ceiling in force.',
      ),
    ])
    expect(harness.requests).toEqual([])
  })
})

it('points at a doc, a statement and a command that exist', async () => {
  const { ceilingStatement, CHECK_COMMAND, LIMITS_DOC } =
    await import('@/lib/waitlist/announce-limits')
  const { SIGNUP_LIMITS_MIGRATION } = await import('@/lib/waitlist/schema-check')
  await expect(access(LIMITS_DOC)).resolves.toBeUndefined()
  // The statement the log gives changes the very setting the migration creates.
  expect(await readFile(SIGNUP_LIMITS_MIGRATION, 'utf8')).toContain(ceilingStatement(1200))
  const { parseCommand } = await import('@/lib/waitlist/operator/args')
  expect(parseCommand(CHECK_COMMAND.split(' -- ')[1]!.split(' '))).toEqual({ name: 'check' })
})

describe('the log of refusals', () => {
  it('says once as a burst starts, and the count once it has been quiet for a minute', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await freshAction({ WAITLIST_DATA_DIR: 'memory://' })
    const { signupLimitsFor } = await import('@/lib/waitlist/visitor-limits')
    const refused = (times: number, why: 'over_ceiling' | 'over_allowance' = 'over_ceiling') => {
      for (let i = 0; i < times; i += 1) signupLimitsFor('203.0.113.1').refused?.(why)
    }
    const lines = () => warn.mock.calls.map(([line]) => String(line))
    vi.useFakeTimers()
    refused(7)
    vi.advanceTimersByTime(30_000)
    refused(3)
    // A minute after the first refusal, but only half a minute after the last: not over yet.
    vi.advanceTimersByTime(30_000)
    expect(lines()).toHaveLength(1)
    vi.advanceTimersByTime(30_000)
    expect(lines()).toHaveLength(2)
    expect(lines()[1]).toMatch(/ceiling .*burst over refused=10 seconds=30$/)

    // Each limit has bursts of its own.
    refused(2, 'over_allowance')
    refused(1)
    vi.advanceTimersByTime(60_000)
    expect(lines().slice(2)).toEqual([
      expect.stringContaining("over a visitor's allowance of signups a minute"),
      expect.stringContaining("over the database's ceiling"),
      expect.stringMatching(/allowance.*burst over refused=2 seconds=0$/),
      expect.stringMatching(/ceiling.*burst over refused=1 seconds=0$/),
    ])
  })
})
