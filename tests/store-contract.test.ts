import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { joinWith } from '@/lib/waitlist/join'
import {
  embeddedUnderTest,
  supabaseUnderTest,
  TEST_TIMEOUT_MS,
  type StoreUnderTest,
} from './support/stores'

function postOf(fields: Record<string, string>): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  return form
}

/**
 * One suite, both stores: a visitor must get the same outcome whichever
 * backend serves the page.
 */
describe.each([
  ['embedded (PGlite)', embeddedUnderTest],
  ['Supabase (through the local stand-in)', supabaseUnderTest],
])('signing up on the %s store', (_name, open) => {
  let subject: StoreUnderTest
  const join = (fields: Record<string, string>) =>
    joinWith(postOf(fields), async () => subject.store)

  let errors: MockInstance<typeof console.error>
  const logged = () => errors.mock.calls.map(([line]) => String(line))

  beforeEach(async () => {
    subject = await open()
    errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    await subject.close()
  })

  it('joins, storing the normalised address and its source', async () => {
    await expect(
      join({ email: ' Ann@Example.com ', source: 'hero_section' }),
    ).resolves.toMatchObject({
      status: 'joined',
    })
    expect(await subject.rows()).toEqual([{ email: 'ann@example.com', source: 'hero_section' }])
  })

  it('answers already joined for the same address, in another case and from the other form', async () => {
    await join({ email: 'ann@example.com', source: 'hero_section' })
    await expect(join({ email: 'ANN@example.COM', source: 'cta_section' })).resolves.toMatchObject({
      status: 'already_joined',
    })
    expect(await subject.rows()).toHaveLength(1)
  })

  it('refuses an unknown source and stores nothing', async () => {
    await expect(join({ email: 'ann@example.com', source: 'footer' })).resolves.toMatchObject({
      status: 'invalid',
      field: 'source',
    })
    expect(await subject.rows()).toEqual([])
  })

  it('refuses a malformed address, keeps it for the field, and stores nothing', async () => {
    await expect(join({ email: 'ann@localhost', source: 'cta_section' })).resolves.toMatchObject({
      status: 'invalid',
      field: 'email',
      email: 'ann@localhost',
    })
    expect(await subject.rows()).toEqual([])
  })

  it('answers a backend failure with the generic outcome, keeping the address, and logs it once', async () => {
    await subject.breakBackend()
    await expect(join({ email: 'ann@example.com', source: 'hero_section' })).resolves.toMatchObject(
      {
        status: 'error',
        email: 'ann@example.com',
      },
    )
    expect(logged()).toEqual([expect.stringMatching(/signup failed .*an\*\*\*@example\.com/)])
  })

  it('gives up on a backend that does not answer, at the deadline', async () => {
    await subject.hangBackend()
    await expect(join({ email: 'ann@example.com', source: 'hero_section' })).resolves.toMatchObject(
      {
        status: 'error',
        email: 'ann@example.com',
      },
    )
    expect(logged()).toEqual([
      expect.stringContaining(`the store did not answer within ${TEST_TIMEOUT_MS} ms`),
    ])
  })
})

describe('the embedded store, when an insert commits after the deadline', () => {
  let subject: StoreUnderTest
  beforeEach(async () => {
    subject = await embeddedUnderTest()
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    await subject.close()
  })

  it('has told the visitor it failed, yet stored the row: trying again says already on the list', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const join = () =>
      joinWith(
        postOf({ email: 'late@example.com', source: 'hero_section' }),
        async () => subject.store,
      )

    // The insert waits behind a held transaction past the deadline, and commits once that ends.
    const letGo = await subject.hangBackend()
    await expect(join()).resolves.toMatchObject({ status: 'error', email: 'late@example.com' })
    expect(logged).toHaveBeenCalledOnce()
    expect(String(logged.mock.calls[0]?.[0])).toContain(
      `the store did not answer within ${TEST_TIMEOUT_MS} ms`,
    )

    letGo()
    await vi.waitFor(async () =>
      expect(await subject.rows()).toEqual([{ email: 'late@example.com', source: 'hero_section' }]),
    )
    await expect(join()).resolves.toMatchObject({ status: 'already_joined' })
    expect(logged).toHaveBeenCalledOnce()
  })
})
