import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSupabaseHarness, type SupabaseHarness } from './harness/postgrest'

/**
 * What anyone holding the public key can do, tried directly against the data
 * service as supabase-js would: add an address, and nothing else.
 */
let harness: SupabaseHarness

async function rest(path: string, init: RequestInit & { key?: string } = {}) {
  const response = await harness.rest(path, init)
  const text = await response.text()
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    headers: response.headers,
  }
}

const insert = (row: Record<string, unknown>) =>
  rest('waitlist', { method: 'POST', body: JSON.stringify(row) })

beforeAll(async () => {
  harness = await startSupabaseHarness()
  await harness.db.exec(
    "insert into public.waitlist (email, source) values ('first@example.com', 'hero_section')",
  )
})
afterAll(() => harness.close())

describe('the public key', () => {
  it('may insert an address and its source', async () => {
    expect((await insert({ email: 'ann@example.com', source: 'cta_section' })).status).toBe(201)
  })

  it('meets 23505 for an address already there', async () => {
    const answer = await insert({ email: 'first@example.com', source: 'cta_section' })
    expect(answer.status).toBe(409)
    expect(answer.body).toMatchObject({ code: '23505', details: null, hint: null })
  })

  it.each([
    ['read', 'waitlist?select=*', 'GET', undefined],
    ['read one address', 'waitlist?select=email&email=eq.first@example.com', 'GET', undefined],
    ['update', 'waitlist?email=eq.first@example.com', 'PATCH', { source: 'cta_section' }],
    ['delete', 'waitlist?email=eq.first@example.com', 'DELETE', undefined],
  ])('may not %s', async (_what, path, method, body) => {
    const answer = await rest(path, { method, body: body && JSON.stringify(body) })
    expect(answer.status).toBe(401)
    expect(answer.body).toMatchObject({ code: '42501' })
  })

  it.each([
    ['figures', 'waitlist_stats', { days: 14 }],
    [
      'an import',
      'waitlist_import',
      { entries: [{ email: 'rpc@example.com', source: 'hero_section' }] },
    ],
  ])('may not ask the database for %s', async (_what, name, args) => {
    const answer = await rest(`rpc/${name}`, { method: 'POST', body: JSON.stringify(args) })
    expect(answer).toMatchObject({
      status: 401,
      body: { code: '42501', message: `permission denied for function ${name}` },
    })
  })

  it('may not count the list', async () => {
    const answer = await rest('waitlist?select=*', {
      method: 'HEAD',
      headers: { prefer: 'count=exact' },
    })
    expect(answer.status).toBe(401)
  })

  it('may not ask for the inserted row back (insert-only, so .select() after insert fails)', async () => {
    const answer = await rest('waitlist?select=*', {
      method: 'POST',
      headers: { prefer: 'return=representation' },
      body: JSON.stringify({ email: 'rows@example.com', source: 'hero_section' }),
    })
    expect(answer.status).toBe(401)
    expect(answer.body).toMatchObject({ code: '42501' })
  })

  it('may not set its own id', async () => {
    const answer = await insert({ id: 99, email: 'id@example.com', source: 'hero_section' })
    expect(answer).toMatchObject({ status: 400, body: { code: '428C9' } })
  })

  it('may not set its own timestamp', async () => {
    const row = {
      email: 'ts@example.com',
      source: 'hero_section',
      created_at: '2020-01-01T00:00:00Z',
    }
    expect(await insert(row)).toMatchObject({ status: 401, body: { code: '42501' } })
  })

  it.each([
    ['an upper-case address', 'Ann@Example.com'],
    ['a padded address', ' pad@example.com'],
    ['an address without @', 'nobody.example.com'],
    ['an address with two @', 'a@b@example.com'],
    ['an address without a dot in the domain', 'ann@localhost'],
    ['an address with a space', 'an n@example.com'],
    ['an address with a control character', 'an\u0007n@example.com'],
    ['an address of 255 characters', `${'a'.repeat(243)}@example.com`],
  ])('is refused %s with 23514', async (_what, email) => {
    const answer = await insert({ email, source: 'hero_section' })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ code: '23514' })
  })

  it('is refused an unknown source with 23514', async () => {
    const answer = await insert({ email: 'src@example.com', source: 'admin' })
    expect(answer).toMatchObject({ status: 400, body: { code: '23514' } })
  })

  it.each([
    ['no address', { source: 'hero_section' }],
    ['no source', { email: 'nosource@example.com' }],
  ])('is refused a row with %s with 23502', async (_what, row) => {
    const answer = await insert(row)
    expect(answer).toMatchObject({ status: 400, body: { code: '23502' } })
  })

  it('stored exactly the two good rows', async () => {
    const { rows } = await harness.db.query('select email from public.waitlist order by id')
    expect(rows).toEqual([{ email: 'first@example.com' }, { email: 'ann@example.com' }])
  })
})

describe('the service key', () => {
  it('may ask for the figures, computed by the database', async () => {
    const answer = await rest('rpc/waitlist_stats', {
      method: 'POST',
      key: harness.serviceRoleKey,
      body: JSON.stringify({ days: 1 }),
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-range')).toBe('0-0/*')
    expect(answer.body).toMatchObject({ total: 2, by_source: { hero_section: 1, cta_section: 1 } })
  })

  it('is told which function is missing, as PostgREST says it', async () => {
    const answer = await rest('rpc/waitlist_stats', {
      method: 'POST',
      key: harness.serviceRoleKey,
      body: JSON.stringify({ weeks: 1 }),
    })
    expect(answer).toMatchObject({
      status: 404,
      body: {
        code: 'PGRST202',
        message: 'Could not find the function public.waitlist_stats(weeks) in the schema cache',
        hint: null,
      },
    })
  })

  it('may read the list (for operators)', async () => {
    const answer = await rest('waitlist?select=email', { key: harness.serviceRoleKey })
    expect(answer.status).toBe(200)
    expect(answer.body).toContainEqual({ email: 'first@example.com' })
  })
})

describe('the stand-in', () => {
  it('answers an unknown table with PGRST205', async () => {
    const answer = await rest('wait_list', { method: 'POST', body: '{}' })
    expect(answer).toMatchObject({ status: 404, body: { code: 'PGRST205' } })
  })

  it('records the migrations it applied, as the Supabase CLI does', async () => {
    const { readMigrations } = await import('@/lib/waitlist/migrations')
    const files = await readMigrations('supabase/migrations')
    const { rows } = await harness.db.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations order by version',
    )
    expect(rows.map((row) => row.version)).toEqual(files.map((file) => file.version))
  })
})
