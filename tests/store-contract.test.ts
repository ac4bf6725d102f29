import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { joinWith } from '@/lib/waitlist/join'
import { embeddedUnderTest, supabaseUnderTest, type StoreUnderTest } from './support/stores'

/**
 * One suite, both stores: a visitor must get the same outcome whichever
 * backend serves the page.
 */
describe.each([
  ['embedded (PGlite)', embeddedUnderTest],
  ['Supabase (through the local stand-in)', supabaseUnderTest],
])('signing up on the %s store', (_name, open) => {
  let subject: StoreUnderTest
  const join = (fields: Record<string, string>) => {
    const form = new FormData()
    for (const [name, value] of Object.entries(fields)) form.set(name, value)
    return joinWith(form, async () => subject.store)
  }

  beforeEach(async () => {
    subject = await open()
    vi.spyOn(console, 'error').mockImplementation(() => {})
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

  it('answers a backend failure with the generic outcome, keeping the address', async () => {
    await subject.breakBackend()
    await expect(join({ email: 'ann@example.com', source: 'hero_section' })).resolves.toMatchObject(
      {
        status: 'error',
        email: 'ann@example.com',
      },
    )
  })

  it('gives up on a backend that does not answer', async () => {
    await subject.hangBackend()
    await expect(join({ email: 'ann@example.com', source: 'hero_section' })).resolves.toMatchObject(
      {
        status: 'error',
      },
    )
  })
})
