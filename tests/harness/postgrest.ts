/**
 * A local stand-in for a Supabase project's REST data service (PostgREST
 * behind the API gateway), for tests. Requests run on PGlite with this
 * project's migrations, as the role the bearer token names, and are answered
 * with PostgREST's statuses and bodies (see the contract in docs/supabase.md).
 *
 * It speaks the part of PostgREST the project uses: insert (POST); select
 * (GET/HEAD) with `count=exact`, `order`, and a window given as `limit` and
 * `offset` (what supabase-js's `.range()` sends) or a `Range` header, capped
 * at `maxRows` like PostgREST's `db-max-rows`; delete (DELETE), with the
 * deleted rows sent back when asked (`Prefer: return=representation`, as
 * `.delete().select()` asks); calls of functions in `public` that return one
 * value (POST /rpc/<name>, arguments by name, as `supabase.rpc()` sends
 * them); and for the security tests update (PATCH). Filters are
 * `column=eq.value`.
 *
 * Like PostgREST, each request runs in one transaction that first sets the
 * role its token names and the transaction-local settings `request.method`,
 * `request.path` (as PostgREST sees it, behind the gateway's `/rest/v1`),
 * `request.headers` (one JSON object, names lower-cased, cookies left out)
 * and `request.jwt.claims`; and an error raised in SQL with a SQLSTATE
 * `PTnnn` is answered with HTTP status nnn, the message as its reason phrase.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { PGlite } from '@electric-sql/pglite'
import { openLocalDatabase } from '@/lib/waitlist/open-local-database'

/** Supabase's published demo keys for local development: JWTs whose `role` claim names the role. */
export const DEMO_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'
export const DEMO_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU'

/** A canned answer in place of the real one, for fault tests. `hang` never answers. */
export type Fault =
  | { kind: 'hang' }
  | { kind: 'refuse' }
  | { kind: 'answer'; status: number; body: string; contentType?: string }
  | { kind: 'delay'; ms: number }

export type HarnessOptions = {
  port?: number
  /** The most rows one read returns, as PostgREST's `db-max-rows` (default 1000, Supabase's). */
  maxRows?: number
  /** Chooses a fault per request; the body of a POST is passed parsed when it is JSON. */
  faultFor?: (request: { method: string; path: string; body: unknown }) => Fault | undefined
  /** The database's ceiling on new signups a minute (0: none); the migration's 600 when unset. */
  signupCeilingPerMinute?: number
  /** Another folder of migrations, for a project set up by older code (default supabase/migrations). */
  migrationsDir?: string
}

export type SupabaseHarness = {
  url: string
  anonKey: string
  serviceRoleKey: string
  db: PGlite
  /**
   * A request to the data service as supabase-js sends it: `path` under
   * /rest/v1, the public key unless `key` names another, a JSON body.
   */
  rest(path: string, init?: RequestInit & { key?: string }): Promise<Response>
  /** Every request after this one gets `fault` (until cleared with `undefined`). */
  setFault(fault: Fault | undefined): void
  requests: RecordedRequest[]
  close(): Promise<void>
}

export type RecordedRequest = {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
  /** Whether the client closed the connection before it had the whole answer. */
  cancelled: boolean
}

type Role = 'anon' | 'authenticated' | 'service_role'

type PgError = { code?: string; message: string; detail?: string; hint?: string }

/** What PostgREST sets before a request's statement, read from the request as it arrived. */
type RequestSettings = { role: Role; method: string; path: string; headers: string; claims: string }

type InRequest = <T>(run: (tx: Pick<PGlite, 'query'>) => Promise<T>) => Promise<T>

const JSON_TYPE = 'application/json; charset=utf-8'
const TABLES = new Set(['waitlist'])
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message))
  }
}

function postgrestError(
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
) {
  return { code, details, hint, message }
}

const ROLES: readonly string[] = ['anon', 'authenticated', 'service_role']

/** The token's claims, as PostgREST hands them to SQL; new-style keys stand for a role's token. */
function claimsOf(token: string | undefined): { role: Role } | undefined {
  if (!token) return undefined
  if (token.startsWith('sb_publishable_')) return { role: 'anon' }
  if (token.startsWith('sb_secret_')) return { role: 'service_role' }
  const payload = token.split('.')[1]
  if (!payload) return undefined
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    return ROLES.includes(claims?.role) ? claims : undefined
  } catch {
    return undefined
  }
}

/**
 * `request.headers` as PostgREST builds it: every header but Cookie, its name
 * lower-cased, the last of a repeated name winning.
 */
function headersSetting(rawHeaders: string[]): string {
  const headers: Record<string, string> = {}
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase()
    if (name !== 'cookie') headers[name] = rawHeaders[i + 1]!
  }
  return JSON.stringify(headers)
}

/** A raised `PTnnn` answers HTTP nnn (PostgREST's Error.hs); anything else there is a 500. */
function customStatus(code: string): number | undefined {
  const match = /^PT(.*)$/.exec(code)
  if (!match) return undefined
  const status = Number(match[1])
  return /^\d{3}$/.test(match[1]!) && status >= 100 ? status : 500
}

/** PostgREST's mapping of a PostgreSQL error to an HTTP status (its ErrorCode table). */
function statusFor(error: PgError, role: Role): number {
  const code = error.code ?? ''
  const custom = customStatus(code)
  if (custom !== undefined) return custom
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    '42883': 404,
    '42P01': 404,
    '42P17': 500,
    P0001: 400,
  }
  if (code === '42501') return role === 'anon' ? 401 : 403
  if (code in exact) return exact[code]!
  const byClass: Record<string, number> = {
    '08': 503,
    '09': 500,
    '0L': 403,
    '0P': 403,
    '25': 500,
    '28': 403,
    '2D': 500,
    '38': 500,
    '39': 500,
    '3B': 500,
    '40': 500,
    '53': 503,
    '54': 500,
    '55': 500,
    '57': 500,
    '58': 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  }
  return byClass[code.slice(0, 2)] ?? 400
}

function quote(identifier: string): string {
  if (!IDENTIFIER.test(identifier)) {
    throw new HttpError(400, postgrestError('PGRST100', `"failed to parse" (${identifier})`))
  }
  return `"${identifier}"`
}

function filters(params: URLSearchParams): { where: string; values: unknown[] } {
  const clauses: string[] = []
  const values: unknown[] = []
  for (const [column, condition] of params) {
    if (['select', 'limit', 'offset', 'order', 'columns', 'on_conflict'].includes(column)) continue
    const match = /^eq\.(.*)$/s.exec(condition)
    if (!match)
      throw new HttpError(
        400,
        postgrestError('PGRST100', `"failed to parse filter (${condition})"`),
      )
    values.push(match[1])
    clauses.push(`${quote(column)} = $${values.length}`)
  }
  return { where: clauses.length ? ` where ${clauses.join(' and ')}` : '', values }
}

/** `order=id.asc,email.desc.nullslast` → `order by "id" asc, "email" desc nulls last`. */
function orderBy(params: URLSearchParams): string {
  const order = params.get('order')
  if (!order) return ''
  const terms = order.split(',').map((term) => {
    const [column = '', ...modifiers] = term.split('.')
    const words = modifiers.map((modifier) => {
      const sql = { asc: 'asc', desc: 'desc', nullsfirst: 'nulls first', nullslast: 'nulls last' }[
        modifier
      ]
      if (!sql)
        throw new HttpError(400, postgrestError('PGRST100', `"failed to parse order (${order})"`))
      return sql
    })
    return [quote(column), ...words].join(' ')
  })
  return ` order by ${terms.join(', ')}`
}

/** The rows asked for: `limit`/`offset` parameters, else a `Range: first-last` header, else all. */
function rowWindow(params: URLSearchParams, range: string | undefined) {
  const whole = (value: string | null) => (value === null ? undefined : Number(value))
  let offset = whole(params.get('offset')) ?? 0
  let limit = whole(params.get('limit'))
  const header = range && /^(\d+)-(\d*)$/.exec(range)
  if (header && params.get('offset') === null) {
    offset = Number(header[1])
    if (header[2]) limit = Number(header[2]) - offset + 1
  }
  if (!Number.isInteger(offset) || offset < 0 || (limit !== undefined && !(limit >= 0))) {
    throw new HttpError(400, postgrestError('PGRST103', 'Requested range not satisfiable'))
  }
  return { offset, limit }
}

function selectList(params: URLSearchParams): string {
  const select = params.get('select')
  if (!select || select === '*') return '*'
  return select
    .split(',')
    .map((c) => quote(c.trim()))
    .join(', ')
}

type Answer = { status: number; body?: string; headers?: Record<string, string> }

type Routine = {
  names: string[]
  types: string[]
  required: number
  returnsVoid: boolean
  returnsSet: boolean
}

/**
 * Calls `public.<name>` as PostgREST does for `POST /rpc/<name>`: the JSON
 * body's keys name the arguments, a function is found whose arguments cover
 * them (those without defaults all given), and its one value is the body.
 */
async function callRoutine(
  db: PGlite,
  inRequest: InRequest,
  name: string,
  body: string,
): Promise<Answer> {
  let args: unknown
  try {
    args = body.trim() ? JSON.parse(body) : {}
  } catch {
    throw new HttpError(400, postgrestError('PGRST102', 'Empty or invalid json'))
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new HttpError(400, postgrestError('PGRST102', 'Empty or invalid json'))
  }
  const given = Object.keys(args).sort()
  // PostgREST's schema cache holds every function of the schema, whoever may run it.
  const { rows } = await db.query<Routine>(
    `select coalesce(p.proargnames[1:p.pronargs], '{}') as names,
            array(select format_type(t, null) from unnest(p.proargtypes) t) as types,
            p.pronargs - p.pronargdefaults as required,
            p.prorettype = 'void'::regtype as "returnsVoid",
            p.proretset as "returnsSet"
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.proname = $1`,
    [name],
  )
  const routine = rows.find(
    (r) =>
      given.every((key) => r.names.includes(key)) &&
      r.names.slice(0, r.required).every((key) => given.includes(key)),
  )
  if (!routine) {
    const signature = given.length ? `(${given.join(', ')})` : ' without parameters'
    const searched = given.length ? `with parameters ${given.join(', ')}` : 'without parameters'
    throw new HttpError(
      404,
      postgrestError(
        'PGRST202',
        `Could not find the function public.${name}${signature} in the schema cache`,
        `Searched for the function public.${name} ${searched} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
      ),
    )
  }
  if (routine.returnsSet) {
    throw new HttpError(
      500,
      postgrestError('XX000', 'the stand-in calls only functions that return one value'),
    )
  }
  const values = given.map((key) => {
    const value = (args as Record<string, unknown>)[key]
    const type = routine.types[routine.names.indexOf(key)] ?? 'text'
    if (value === null || value === undefined) return null
    return typeof value === 'string' && !/^jsonb?$/.test(type) ? value : JSON.stringify(value)
  })
  const call = given
    .map((key, i) => `${quote(key)} := $${i + 1}::${routine.types[routine.names.indexOf(key)]}`)
    .join(', ')
  const result = await inRequest((tx) =>
    tx.query<{ body: string | null }>(
      `select to_json(public.${quote(name)}(${call}))::text as body`,
      values,
    ),
  )
  if (routine.returnsVoid) return { status: 204, headers: { 'content-range': '0-0/*' } }
  return {
    status: 200,
    body: result.rows[0]?.body ?? 'null',
    headers: { 'content-type': JSON_TYPE, 'content-range': '0-0/*' },
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startSupabaseHarness(options: HarnessOptions = {}): Promise<SupabaseHarness> {
  const local = await openLocalDatabase(undefined, { migrationsDir: options.migrationsDir })
  const db = local.db
  if (options.signupCeilingPerMinute !== undefined) {
    await db.query('update waitlist_private.signup_limits set signups_per_minute = $1', [
      options.signupCeilingPerMinute,
    ])
  }

  const maxRows = options.maxRows ?? 1000
  const anonKey = DEMO_ANON_KEY
  const serviceRoleKey = DEMO_SERVICE_ROLE_KEY
  const apiKeys = new Set([anonKey, serviceRoleKey])
  let fault: Fault | undefined
  const requests: RecordedRequest[] = []
  const sockets = new Set<Socket>()

  async function inTransaction<T>(
    request: RequestSettings,
    run: (tx: Pick<PGlite, 'query'>) => Promise<T>,
  ): Promise<T> {
    return db.transaction(async (tx) => {
      // Supabase's databases run in UTC; timestamps are sent with a +00:00 offset.
      await tx.exec(`set local role ${request.role}; set local time zone 'UTC'`)
      await tx.query(
        `select set_config('request.method', $1, true), set_config('request.path', $2, true),
                set_config('request.headers', $3, true), set_config('request.jwt.claims', $4, true)`,
        [request.method, request.path, request.headers, request.claims],
      )
      return run(tx)
    })
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://harness')
    const send = (status: number, payload?: unknown, headers: Record<string, string> = {}) => {
      if (payload === undefined) {
        res.writeHead(status, headers).end()
      } else {
        res
          .writeHead(status, { 'content-type': JSON_TYPE, ...headers })
          .end(JSON.stringify(payload))
      }
    }

    // Every error PostgREST itself answers names its code in Proxy-Status (PostgREST 13 and later).
    const sendError = (
      status: number,
      body: { code: string; message: string },
      reason?: string,
    ) => {
      const headers: Record<string, string> = {
        'content-type': JSON_TYPE,
        'proxy-status': `PostgREST; error=${body.code}`,
      }
      if (status === 401) headers['www-authenticate'] = 'Bearer'
      const payload = JSON.stringify(body)
      try {
        res.writeHead(status, reason, headers)
      } catch {
        // A reason phrase Node will not send (a line break in the message): the standard one.
        res.writeHead(status, headers)
      }
      res.end(payload)
    }

    if (url.pathname === '/health') return send(200, { ok: true })

    // The API gateway: an unknown key never reaches the data service.
    const apikey = req.headers.apikey
    if (typeof apikey !== 'string' || !apiKeys.has(apikey)) {
      return send(401, {
        message: 'Invalid API key',
        hint: 'Double check your Supabase `anon` or `service_role` API key.',
      })
    }
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? apikey
    const claims = claimsOf(bearer)
    if (!claims)
      return sendError(
        401,
        postgrestError(
          'PGRST301',
          'JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)',
        ),
      )
    const role = claims.role
    const request: RequestSettings = {
      role,
      method: req.method ?? '',
      // The gateway takes `/rest/v1` off before the request reaches PostgREST.
      path: url.pathname.replace(/^\/rest\/v1(?=\/)/, ''),
      headers: headersSetting(req.rawHeaders),
      claims: JSON.stringify(claims),
    }
    const inRequest: InRequest = (run) => inTransaction(request, run)

    const fail = (error: unknown) => {
      if (error instanceof HttpError) {
        return sendError(error.status, error.body as { code: string; message: string })
      }
      const pg = error as PgError
      const code = pg.code ?? 'XX000'
      // Under row-level security PostgreSQL leaves `details` empty; the key is never disclosed.
      return sendError(
        statusFor(pg, role),
        postgrestError(code, pg.message, pg.detail ?? null, pg.hint ?? null),
        // PostgREST makes a PTnnn error's message the status line's reason phrase.
        customStatus(code) === undefined ? undefined : pg.message,
      )
    }

    const routine = /^\/rest\/v1\/rpc\/([^/]+)$/.exec(url.pathname)?.[1]
    if (routine) {
      if (req.method !== 'POST') {
        return sendError(405, postgrestError('PGRST117', `Unsupported HTTP method: ${req.method}`))
      }
      try {
        const answer = await callRoutine(db, inRequest, routine, body)
        res.writeHead(answer.status, answer.headers).end(answer.body)
        return
      } catch (error) {
        return fail(error)
      }
    }

    const match = /^\/rest\/v1\/([^/]+)$/.exec(url.pathname)
    const table = match?.[1]
    if (!table || !TABLES.has(table)) {
      return sendError(
        404,
        postgrestError(
          'PGRST205',
          `Could not find the table 'public.${table ?? ''}' in the schema cache`,
        ),
      )
    }
    const prefer = String(req.headers.prefer ?? '')
    const wantsRows = prefer.includes('return=representation')
    const relation = `public.${quote(table)}`
    const params = url.searchParams

    try {
      switch (req.method) {
        case 'POST': {
          let parsed: unknown
          try {
            parsed = JSON.parse(body)
          } catch {
            return sendError(400, postgrestError('PGRST102', 'Empty or invalid json'))
          }
          const rows = (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[]
          if (rows.length === 0 || rows.some((r) => typeof r !== 'object' || r === null)) {
            return sendError(400, postgrestError('PGRST102', 'Empty or invalid json'))
          }
          const columns = Object.keys(rows[0]!)
          const values: unknown[] = []
          const tuples = rows.map(
            (row) =>
              `(${columns
                .map((column) => {
                  values.push(row[column] ?? null)
                  return `$${values.length}`
                })
                .join(', ')})`,
          )
          const sql = `insert into ${relation} (${columns.map(quote).join(', ')}) values ${tuples.join(', ')} returning ${wantsRows ? selectList(params) : '1'}`
          const result = await inRequest((tx) => tx.query(sql, values))
          return wantsRows
            ? send(201, result.rows)
            : send(201, undefined, { 'content-range': '*/*' })
        }
        case 'GET':
        case 'HEAD': {
          const { where, values } = filters(params)
          const { offset, limit } = rowWindow(params, req.headers.range)
          const rowsSql = `select ${selectList(params)} from ${relation}${where}${orderBy(params)} limit ${Math.min(limit ?? maxRows, maxRows)} offset ${offset}`
          // Like PostgREST, the body is built by PostgreSQL's own JSON, so values read as they would there.
          const sql = `select coalesce(json_agg(r), '[]')::text as body, count(*)::int as sent from (${rowsSql}) r`
          const result = await inRequest((tx) =>
            tx.query<{ body: string; sent: number }>(sql, values),
          )
          const { body: json, sent } = result.rows[0] ?? { body: '[]', sent: 0 }
          let total = '*'
          if (prefer.includes('count=exact')) {
            const count = await inRequest((tx) =>
              tx.query<{ n: number }>(`select count(*)::int as n from ${relation}${where}`, values),
            )
            total = String(count.rows[0]?.n ?? 0)
          }
          // PostgREST's Content-Range: the rows sent, first-last, or `*` when none were.
          const headers = {
            'content-range': `${sent ? `${offset}-${offset + sent - 1}` : '*'}/${total}`,
          }
          if (req.method === 'HEAD') return send(200, undefined, headers)
          res.writeHead(200, { 'content-type': JSON_TYPE, ...headers }).end(json)
          return
        }
        case 'PATCH':
        case 'DELETE': {
          const { where, values } = filters(params)
          let sql: string
          if (req.method === 'PATCH') {
            const changes = JSON.parse(body || '{}') as Record<string, unknown>
            const sets = Object.entries(changes).map(([column, value]) => {
              values.push(value)
              return `${quote(column)} = $${values.length}`
            })
            sql = `update ${relation} set ${sets.join(', ')}${where}`
          } else {
            sql = `delete from ${relation}${where}`
          }
          const result = await inRequest((tx) =>
            tx.query(`${sql} returning ${wantsRows ? selectList(params) : '1'}`, values),
          )
          // PostgREST's Content-Range for a change: `*/*` unless a count was asked for.
          const headers = { 'content-range': '*/*' }
          return wantsRows ? send(200, result.rows, headers) : send(204, undefined, headers)
        }
        default:
          return sendError(
            405,
            postgrestError('PGRST117', `Unsupported HTTP method: ${req.method}`),
          )
      }
    } catch (error) {
      return fail(error)
    }
  }

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req)
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body,
      cancelled: false,
    }
    requests.push(recorded)
    res.on('close', () => (recorded.cancelled = !res.writableFinished))
    let parsedBody: unknown
    try {
      parsedBody = body ? JSON.parse(body) : undefined
    } catch {
      parsedBody = undefined
    }
    const chosen =
      fault ??
      options.faultFor?.({ method: req.method ?? '', path: req.url ?? '', body: parsedBody })
    if (chosen?.kind === 'hang') return
    if (chosen?.kind === 'refuse') return void req.socket.destroy()
    if (chosen?.kind === 'answer') {
      res
        .writeHead(chosen.status, { 'content-type': chosen.contentType ?? JSON_TYPE })
        .end(chosen.body)
      return
    }
    if (chosen?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, chosen.ms))
    try {
      await handle(req, res, body)
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': JSON_TYPE })
      res.end(JSON.stringify(postgrestError('XX000', String(error))))
    }
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  const url = `http://127.0.0.1:${port}`
  return {
    url,
    anonKey,
    serviceRoleKey,
    db,
    requests,
    rest: (path, { key = anonKey, ...init } = {}) =>
      fetch(`${url}/rest/v1/${path}`, {
        ...init,
        headers: {
          apikey: key,
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          ...init.headers,
        },
      }),
    setFault: (next) => {
      fault = next
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await local.close()
    },
  }
}

/** The answers the contract lists, ready to serve as faults. */
export const cannedAnswers = {
  uniqueViolation: {
    kind: 'answer',
    status: 409,
    body: JSON.stringify(
      postgrestError(
        '23505',
        'duplicate key value violates unique constraint "waitlist_email_lower_key"',
      ),
    ),
  },
  rlsViolation: {
    kind: 'answer',
    status: 401,
    body: JSON.stringify(
      postgrestError('42501', 'new row violates row-level security policy for table "waitlist"'),
    ),
  },
  html502: {
    kind: 'answer',
    status: 502,
    contentType: 'text/html',
    body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>',
  },
  internal500: {
    kind: 'answer',
    status: 500,
    body: JSON.stringify(postgrestError('XX000', 'internal error')),
  },
  invalidApiKey: {
    kind: 'answer',
    status: 401,
    body: JSON.stringify({
      message: 'Invalid API key',
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
    }),
  },
} as const satisfies Record<string, Fault>
