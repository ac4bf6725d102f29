import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { supabaseClient } from '@/lib/waitlist/supabase-client'
import { startSupabaseHarness, type SupabaseHarness } from './harness/postgrest'
import { setCeiling } from './support/signup-limits'

/**
 * The parts of PostgREST the signup limits rely on, as the stand-in must
 * reproduce them (PostgREST 12–14: Query/PreQuery.hs sets the request's
 * settings, Error.hs answers the errors):
 * - before the statement, in the same transaction, `set_config(name, value,
 *   true)` of `request.method`, `request.path` (the path PostgREST sees: the
 *   gateway has taken `/rest/v1` off), `request.headers` (one JSON object of
 *   every header but Cookie, names lower-cased) and `request.jwt.claims`;
 * - an error raised with SQLSTATE `PTnnn` answers HTTP nnn (a `PT` code that
 *   is not a number answers 500), with the message as the reason phrase and
 *   the usual body: code, details, hint, message, the two in the middle null
 *   unless the error set them. Since PostgREST 13 every error it answers also
 *   names its code in `Proxy-Status`; a 401 carries `WWW-Authenticate: Bearer`.
 */
let harness: SupabaseHarness

beforeAll(async () => {
  harness = await startSupabaseHarness()
  await harness.db.exec(`
    create function public.request_settings() returns json language sql stable as $$
      select json_build_object(
        'method', current_setting('request.method', true),
        'path', current_setting('request.path', true),
        'headers', current_setting('request.headers', true)::json,
        'claims', current_setting('request.jwt.claims', true)::json,
        'role', current_user)
    $$;
    create function public.refuse(code text, message text, detail text default null, hint text default null)
    returns void language plpgsql as $$
    begin
      if detail is null then
        raise exception using errcode = code, message = message;
      end if;
      raise exception using errcode = code, message = message, detail = detail, hint = hint;
    end
    $$;
    grant execute on function public.request_settings(), public.refuse(text, text, text, text) to anon;
  `)
})
afterAll(() => harness.close())
beforeEach(async () => {
  await harness.db.exec('truncate public.waitlist, waitlist_private.recent_signups')
  await setCeiling(harness.db, 600)
})

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await harness.rest(path, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  })
  const text = await response.text()
  return { response, body: text ? JSON.parse(text) : undefined }
}

describe("what SQL sees of the request, as PostgREST's settings", () => {
  it('has the method, the path behind the gateway, the headers lower-cased without Cookie, and the claims', async () => {
    const { response, body } = await post(
      'rpc/request_settings',
      {},
      {
        'X-Waitlist-Client': 'Some-Key_1',
        Cookie: 'session=secret',
        'X-Mixed-Case': 'Kept As Sent',
      },
    )
    expect(response.status).toBe(200)
    expect(body).toMatchObject({
      method: 'POST',
      path: '/rpc/request_settings',
      claims: { role: 'anon' },
      role: 'anon',
    })
    expect(body.headers).toMatchObject({
      'x-waitlist-client': 'Some-Key_1',
      'x-mixed-case': 'Kept As Sent',
      apikey: harness.anonKey,
    })
    expect(body.headers).not.toHaveProperty('cookie')
    expect(Object.keys(body.headers).every((name) => name === name.toLowerCase())).toBe(true)
  })

  it('sets them for the transaction only', async () => {
    await post('rpc/request_settings', {}, { 'x-waitlist-client': 'Some-Key_1' })
    const { rows } = await harness.db.query<{ headers: string | null }>(
      "select current_setting('request.headers', true) as headers",
    )
    // Nothing left for the next transaction on the connection: empty, as PostgreSQL leaves it.
    expect(rows[0]?.headers ?? '').toBe('')
  })
})

describe('a SQLSTATE PTnnn raised in SQL', () => {
  it("answers HTTP nnn with the message as reason phrase and PostgREST's body, details and hint null", async () => {
    const { response, body } = await post('rpc/refuse', { code: 'PT429', message: 'Slow down' })
    expect(response.status).toBe(429)
    expect(response.statusText).toBe('Slow down')
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('proxy-status')).toBe('PostgREST; error=PT429')
    expect(body).toStrictEqual({ code: 'PT429', details: null, hint: null, message: 'Slow down' })
  })

  it('carries the detail and hint the error set', async () => {
    const { body } = await post('rpc/refuse', {
      code: 'PT503',
      message: 'Closed',
      detail: 'maintenance',
      hint: 'Come back later.',
    })
    expect(body).toStrictEqual({
      code: 'PT503',
      details: 'maintenance',
      hint: 'Come back later.',
      message: 'Closed',
    })
  })

  it('answers a PT401 with WWW-Authenticate, and a PT code that is not a number with 500', async () => {
    const unauthorised = await post('rpc/refuse', { code: 'PT401', message: 'Who are you' })
    expect(unauthorised.response.status).toBe(401)
    expect(unauthorised.response.headers.get('www-authenticate')).toBe('Bearer')
    const odd = await post('rpc/refuse', { code: 'PTX42', message: 'Odd' })
    expect(odd.response.status).toBe(500)
    expect(odd.body).toMatchObject({ code: 'PTX42', message: 'Odd' })
  })

  it('reaches supabase-js as error.code PTnnn and status nnn', async () => {
    const client = supabaseClient(harness.url, harness.anonKey)
    const { error, status } = await client.rpc('refuse', { code: 'PT429', message: 'Slow down' })
    expect(status).toBe(429)
    expect(error).toMatchObject({ code: 'PT429', message: 'Slow down', details: null, hint: null })
  })
})

describe('an insert with the public key, straight to the data service', () => {
  const signup = (email: string) => ({ email, source: 'hero_section' })

  it('meets the ceiling: 429, PT429, which limit in details', async () => {
    await setCeiling(harness.db, 2)
    expect((await post('waitlist', signup('a@example.com'))).response.status).toBe(201)
    expect((await post('waitlist', signup('b@example.com'))).response.status).toBe(201)
    const { response, body } = await post('waitlist', signup('c@example.com'))
    expect(response.status).toBe(429)
    expect(body).toStrictEqual({
      code: 'PT429',
      details: 'signup_ceiling',
      hint: 'Try again in a minute.',
      message: 'Too many signups: at most 2 a minute from everyone together',
    })
  })

  it('gains nothing by naming a client and a huge allowance of its own', async () => {
    await setCeiling(harness.db, 2)
    const statuses = []
    for (let i = 0; i < 4; i += 1) {
      const { response } = await post('waitlist', signup(`forged-${i}@example.com`), {
        'x-waitlist-client': `forged-client-${i}`.padEnd(20, '0'),
        'x-waitlist-allowance': '999999',
      })
      statuses.push(response.status)
    }
    expect(statuses).toEqual([201, 201, 429, 429])
  })

  it('is refused with 400 for a client key or allowance that is not well formed', async () => {
    const malformed: Record<string, string>[] = [
      { 'x-waitlist-client': 'short', 'x-waitlist-allowance': '10' },
      { 'x-waitlist-client': 'a-long-enough-key-but-no-allowance' },
      { 'x-waitlist-client': 'a-long-enough-key-for-the-test', 'x-waitlist-allowance': '0' },
      { 'x-waitlist-client': "quote'd-key-that-is-long-enough", 'x-waitlist-allowance': '5' },
    ]
    for (const headers of malformed) {
      const { response, body } = await post('waitlist', signup('ann@example.com'), headers)
      expect(response.status).toBe(400)
      expect(body).toMatchObject({ code: '22023' })
    }
    expect((await harness.db.query('select 1 from public.waitlist')).rows).toEqual([])
  })
})
