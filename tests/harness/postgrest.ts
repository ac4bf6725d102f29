// A stand-in for a Supabase project's data service (PostgREST behind the gateway), for tests:
// inserts run on PGlite with the migrations as `anon`, each one transaction, answered with
// PostgREST's statuses and bodies (https://docs.postgrest.org/en/stable/references/errors.html).
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { migrate } from '../../lib/waitlist/migrations'

/** Supabase's published demo public key: a JWT whose `role` claim is `anon`. */
export const DEMO_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'

/** A signing secret for tests, as an operator would set with `npm run waitlist -- signing-secret --set`. */
export const TEST_SIGNING_SECRET = 'test-signing-secret-of-forty-characters!'

/** A canned answer in place of the real one. `hang` never answers; `refuse` drops the connection. */
export type Fault =
  | { kind: 'hang' }
  | { kind: 'refuse' }
  | { kind: 'answer'; status: number; body: string; contentType?: string }

export type SupabaseHarness = {
  url: string
  anonKey: string
  db: PGlite
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[]
  close(): Promise<void>
}

const JSON_TYPE = 'application/json; charset=utf-8'
const error = (
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
) => ({ code, details, hint, message })

/** PostgREST's status for a PostgreSQL error (its ErrorCode table) met by `anon`: PTnnn is nnn. */
function statusFor(code: string): number {
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2))
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '42501': 401,
    '42883': 404,
    '42P01': 404,
    P0001: 400,
  }
  const byClass: Record<string, number> = {
    '08': 503,
    '25': 500,
    '28': 403,
    '40': 500,
    '53': 503,
    '54': 500,
    '57': 500,
    P0: 500,
    XX: 500,
  }
  return exact[code] ?? byClass[code.slice(0, 2)] ?? 400
}

export async function startSupabaseHarness(
  options: {
    port?: number
    ceiling?: number | null
    signingSecret?: string
    faultFor?: (body: unknown) => Fault | undefined
  } = {},
): Promise<SupabaseHarness> {
  const db = await PGlite.create({ extensions: { pgcrypto } })
  await migrate(db)
  if (options.ceiling !== undefined)
    await db.query('update waitlist_private.signup_limits set signups_per_minute = $1', [
      options.ceiling,
    ])
  if (options.signingSecret)
    await db.query('update waitlist_private.secrets set signing_secret = $1', [
      options.signingSecret,
    ])
  const requests: SupabaseHarness['requests'] = []

  async function answer(
    req: IncomingMessage,
    body: unknown,
  ): Promise<{ status: number; payload?: unknown }> {
    const url = new URL(req.url ?? '/', 'http://stand-in')
    if (url.pathname === '/health') return { status: 200, payload: { ok: true } }
    // The API gateway: an unknown key never reaches the data service, and its answer has no code.
    if (req.headers.apikey !== DEMO_ANON_KEY)
      return {
        status: 401,
        payload: {
          message: 'Invalid API key',
          hint: 'Double check your Supabase `anon` or `service_role` API key.',
        },
      }
    if (url.pathname !== '/rest/v1/waitlist') {
      return {
        status: 404,
        payload: error(
          'PGRST205',
          `Could not find the table 'public.${url.pathname.split('/').at(-1)}' in the schema cache`,
        ),
      }
    }
    // PostgREST would read too; nothing here asks it to, so the stand-in says it does not.
    if (req.method !== 'POST')
      return {
        status: 501,
        payload: { message: `the stand-in answers POST only, not ${req.method}` },
      }
    const headers: Record<string, string> = {}
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!.toLowerCase()
      if (name !== 'cookie') headers[name] = req.rawHeaders[i + 1]!
    }
    if (body === undefined)
      return { status: 400, payload: error('PGRST102', 'Empty or invalid json') }
    const rows = Array.isArray(body) ? body : [body]
    try {
      await db.transaction(async (tx) => {
        await tx.exec(`set local role anon; set local time zone 'UTC'`)
        await tx.query(
          `select set_config('request.method', $1, true), set_config('request.path', '/waitlist', true),
                  set_config('request.headers', $2, true), set_config('request.jwt.claims', $3, true)`,
          [req.method, JSON.stringify(headers), JSON.stringify({ role: 'anon' })],
        )
        // As PostgREST: every row of the body through one statement, nothing returned (RETURNING 1 is minimal).
        await tx.query(
          `insert into public.waitlist (email, source) select email, source from json_to_recordset($1) as r(email text, source text) returning 1`,
          [JSON.stringify(rows)],
        )
      })
      return { status: 201 }
    } catch (failure) {
      const {
        code = 'XX000',
        message,
        detail,
        hint,
      } = failure as { code?: string; message: string; detail?: string; hint?: string }
      return {
        status: statusFor(code),
        payload: error(code, message, detail ?? null, hint ?? null),
      }
    }
  }

  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += String(chunk)
    if (req.url !== '/health')
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      // Left undefined: answer() says what PostgREST says of a body that is no JSON.
    }
    const fault = options.faultFor?.(parsed)
    if (fault?.kind === 'hang') return
    if (fault?.kind === 'refuse') return void req.socket.destroy()
    if (fault?.kind === 'answer')
      return void res
        .writeHead(fault.status, { 'content-type': fault.contentType ?? JSON_TYPE })
        .end(fault.body)
    const { status, payload } = await answer(req, parsed)
    if (payload === undefined) res.writeHead(status).end()
    else res.writeHead(status, { 'content-type': JSON_TYPE }).end(JSON.stringify(payload))
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    anonKey: DEMO_ANON_KEY,
    db,
    requests,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await db.close()
    },
  }
}

/** Answers the contract lists, to serve as faults. */
export const cannedAnswers = {
  html502: {
    kind: 'answer',
    status: 502,
    contentType: 'text/html',
    body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
  },
} as const satisfies Record<string, Fault>
