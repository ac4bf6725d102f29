import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { StoreError, withTimeout } from '@/lib/waitlist/store'
import { supabaseStore } from '@/lib/waitlist/supabase-store'
import { cannedAnswers, startSupabaseHarness, type SupabaseHarness } from './harness/postgrest'
import { unusedPort } from './support/ports'

const entry = { email: 'ann@example.com', source: 'hero_section' } as const
let harness: SupabaseHarness

beforeAll(async () => {
  harness = await startSupabaseHarness()
})
afterAll(() => harness.close())
beforeEach(async () => {
  harness.setFault(undefined)
  harness.requests.length = 0
  await harness.db.exec('truncate public.waitlist')
})

const store = () => supabaseStore({ url: harness.url, key: harness.anonKey })

const insertRequest = {
  method: 'POST',
  url: '/rest/v1/waitlist',
  body: JSON.stringify(entry),
  cancelled: false,
}

describe('the Supabase store', () => {
  it('sends the insert supabase-js documents: one POST, the key twice, no Prefer, no query', async () => {
    await expect(store().insert(entry)).resolves.toBe('inserted')
    expect(harness.requests).toHaveLength(1)
    const [request] = harness.requests
    expect(request).toMatchObject({ method: 'POST', url: '/rest/v1/waitlist' })
    expect(request?.headers.apikey).toBe(harness.anonKey)
    expect(request?.headers.authorization).toBe(`Bearer ${harness.anonKey}`)
    expect(request?.headers['content-profile']).toBe('public')
    expect(request?.headers.prefer).toBeUndefined()
    expect(JSON.parse(request?.body ?? '')).toEqual(entry)
  })

  it('reads a 201 as inserted, and the row is there', async () => {
    await expect(store().insert(entry)).resolves.toBe('inserted')
    const { rows } = await harness.db.query('select email, source from public.waitlist')
    expect(rows).toEqual([entry])
  })

  it('reads a 409 with 23505 as a duplicate: the second insert of an address, refused by the table', async () => {
    await store().insert(entry)
    await expect(store().insert(entry)).resolves.toBe('duplicate')
    expect(harness.requests).toMatchObject([insertRequest, insertRequest])
    const { rows } = await harness.db.query('select email from public.waitlist')
    expect(rows).toEqual([{ email: entry.email }])
  })

  it('reads a 409 with 23505 as a duplicate, whatever else the answer says', async () => {
    harness.setFault(cannedAnswers.uniqueViolation)
    await expect(store().insert(entry)).resolves.toBe('duplicate')
    expect(harness.requests).toMatchObject([insertRequest])
  })

  it('treats a 401 with 42501 (row-level security) as a failure', async () => {
    harness.setFault(cannedAnswers.rlsViolation)
    await expect(store().insert(entry)).rejects.toThrow(/HTTP 401, code 42501/)
  })

  it('treats a gateway 401 without a code (bad key) as a failure', async () => {
    const wrongKey = supabaseStore({ url: harness.url, key: 'not-the-key' })
    await expect(wrongKey.insert(entry)).rejects.toThrow(/HTTP 401, code none\): Invalid API key/)
  })

  it('treats an HTML 502 as a failure and keeps only an excerpt of the page, on one line', async () => {
    const page = `${cannedAnswers.html502.body}\n${'<p>\n  filler\n</p>\n'.repeat(500)}`
    harness.setFault({ ...cannedAnswers.html502, body: page })
    const error = await store()
      .insert(entry)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StoreError)
    const { message } = error as Error
    expect(message).toMatch(
      /^Supabase refused the insert \(HTTP 502, code none\): <html>.*502 Bad Gateway/,
    )
    const excerpt = message.slice(message.indexOf('<html>'))
    expect(excerpt).toHaveLength(300)
    expect(excerpt).not.toMatch(/\s{2}|\n/)
  })

  it('treats a refused connection as a failure', async () => {
    const closed = supabaseStore({
      url: `http://127.0.0.1:${await unusedPort()}`,
      key: harness.anonKey,
    })
    await expect(closed.insert(entry)).rejects.toThrow(/no answer, code none/)
  })

  it('gives up on a backend that never answers at the deadline, and calls the request off', async () => {
    harness.setFault({ kind: 'hang' })
    await expect(withTimeout(store(), 300).insert(entry)).rejects.toThrow(
      new StoreError('the store did not answer within 300 ms'),
    )
    await vi.waitFor(() => expect(harness.requests).toMatchObject([{ cancelled: true }]))
  })
})
