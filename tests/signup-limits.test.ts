import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readLocalSchemaReport } from '@/lib/waitlist/schema-check'
import type { ClientAllowance, InsertResult, WaitlistStore } from '@/lib/waitlist/store'
import {
  holdSignupClock,
  keptAdmissions,
  setCeiling,
  type SignupClock,
} from './support/signup-limits'
import { embeddedUnderTest, supabaseUnderTest, type StoreUnderTest } from './support/stores'

/**
 * The limits the database keeps (supabase/migrations, the signup limits), met
 * through each store exactly as the site meets them: the ceiling for
 * everyone together and the allowance of one client, each reached, refused
 * and free again once its minute has passed, on a clock the test holds.
 */
const MINUTE = 60_000

const client = (name: string, perMinute: number): ClientAllowance => ({
  key: `test-client-${name}`.padEnd(24, '-'),
  perMinute,
})

describe.each([
  ['embedded (PGlite)', embeddedUnderTest],
  ['Supabase (through the local stand-in)', supabaseUnderTest],
])('the signup limits on the %s store', (_name, open) => {
  let subject: StoreUnderTest
  let clock: SignupClock
  let next = 0

  /** Inserts one new address per call, from `who` when given; resolves to each result. */
  async function signups(count: number, who?: ClientAllowance, store?: WaitlistStore) {
    const results: InsertResult[] = []
    for (let i = 0; i < count; i += 1) {
      next += 1
      const entry = { email: `person-${next}@example.com`, source: 'hero_section' } as const
      results.push(await (store ?? subject.store).insert(entry, who))
    }
    return results
  }

  beforeAll(async () => {
    subject = await open()
  })
  afterAll(() => subject.close())
  beforeEach(async () => {
    await subject.db.exec('truncate public.waitlist, waitlist_private.recent_signups')
    await setCeiling(subject.db, 600)
    clock = await holdSignupClock(subject.db)
  })

  it("starts with a ceiling of 600 a minute, which the operator's check reads", async () => {
    await expect(readLocalSchemaReport(subject.db)).resolves.toMatchObject({
      signupLimits: true,
      signupsPerMinute: 600,
    })
    await setCeiling(subject.db, 0)
    await expect(readLocalSchemaReport(subject.db)).resolves.toMatchObject({
      signupsPerMinute: 0,
    })
  })

  it('admits the ceiling from everyone together, refuses the next, and stores nothing for it', async () => {
    await setCeiling(subject.db, 3)
    expect(await signups(3)).toEqual(Array(3).fill('inserted'))
    expect(await signups(2, client('fresh', 10))).toEqual(['over_ceiling', 'over_ceiling'])
    expect(await subject.rows()).toHaveLength(3)
  })

  it('admits again as each admitted signup turns a minute old', async () => {
    await setCeiling(subject.db, 3)
    await signups(1)
    await clock.advance(30_000)
    expect(await signups(3)).toEqual(['inserted', 'inserted', 'over_ceiling'])
    await clock.advance(MINUTE - 30_000 - 1)
    expect(await signups(1)).toEqual(['over_ceiling'])
    // The first signup is a minute old: its place is free again, and only its.
    await clock.advance(1)
    expect(await signups(2)).toEqual(['inserted', 'over_ceiling'])
    await clock.advance(30_000)
    expect(await signups(3)).toEqual(['inserted', 'inserted', 'over_ceiling'])
  })

  it("holds one client to its allowance, with no effect on anyone else's", async () => {
    const ann = client('ann', 2)
    expect(await signups(3, ann)).toEqual(['inserted', 'inserted', 'over_allowance'])
    expect(await signups(2, client('bob', 2))).toEqual(['inserted', 'inserted'])
    expect(await signups(2)).toEqual(['inserted', 'inserted'])
    await clock.advance(MINUTE - 1)
    expect(await signups(1, ann)).toEqual(['over_allowance'])
    await clock.advance(1)
    expect(await signups(3, ann)).toEqual(['inserted', 'inserted', 'over_allowance'])
  })

  it('counts a client across servers: two stores on one database share one allowance', async () => {
    const ann = client('ann', 4)
    const other = subject.another()
    const results = []
    for (let i = 0; i < 4; i += 1) {
      results.push(...(await signups(1, ann)), ...(await signups(1, ann, other)))
    }
    expect(results.filter((result) => result === 'inserted')).toHaveLength(4)
    expect(results.slice(4)).toEqual(Array(4).fill('over_allowance'))
  })

  it("refuses a client over its allowance without using up the ceiling's places", async () => {
    await setCeiling(subject.db, 3)
    const ann = client('ann', 1)
    expect(await signups(4, ann)).toEqual(['inserted', ...Array(3).fill('over_allowance')])
    expect(await signups(3)).toEqual(['inserted', 'inserted', 'over_ceiling'])
  })

  it('counts only stored signups: a duplicate or a refused address takes no place', async () => {
    await setCeiling(subject.db, 2)
    const entry = { email: 'ann@example.com', source: 'hero_section' } as const
    await expect(subject.store.insert(entry)).resolves.toBe('inserted')
    await expect(subject.store.insert(entry)).resolves.toBe('duplicate')
    await expect(
      subject.store.insert({ email: 'Not An Address', source: 'hero_section' }),
    ).rejects.toThrow(/violates check constraint "waitlist_email_format"/)
    expect(await signups(2)).toEqual(['inserted', 'over_ceiling'])
  })

  it('applies only the allowance when the ceiling is off (0)', async () => {
    await setCeiling(subject.db, 0)
    expect(await signups(40)).toEqual(Array(40).fill('inserted'))
    expect(await signups(3, client('ann', 2))).toEqual(['inserted', 'inserted', 'over_allowance'])
  })

  it('never limits the operator: the service role on Supabase, the owner locally', async () => {
    await setCeiling(subject.db, 1)
    await signups(1)
    for (let i = 0; i < 5; i += 1) await subject.insertAsOperator(`imported-${i}@example.com`)
    expect(await subject.rows()).toHaveLength(6)
    expect(await signups(1)).toEqual(['over_ceiling'])
  })

  it('keeps nothing past the minute', async () => {
    await signups(5, client('ann', 10))
    expect(await keptAdmissions(subject.db)).toBe(5)
    await clock.advance(MINUTE)
    await signups(1)
    expect(await keptAdmissions(subject.db)).toBe(1)
  })
})
