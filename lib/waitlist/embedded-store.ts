import path from 'node:path'
import pg from 'pg'
import { log } from '@/lib/log'
import { untilAborted } from '@/lib/until-aborted'
import { openFolder, type FolderDatabase } from './data-folder'
import { resultOf, type WaitlistStore } from './store'
import { visitorHeaders } from './visitor'

export const lit = (value: string) => pg.escapeLiteral(value)

/** The signup as the public inserts it: as `anon`, with the visitor's headers where PostgREST puts them. */
export function insertStatement(
  entry: { email: string; source: string },
  headers: Record<string, string>,
): string {
  return (
    `set local role anon; select set_config('request.headers', ${lit(JSON.stringify(headers))}, true); ` +
    `insert into public.waitlist (email, source) values (${lit(entry.email)}, ${lit(entry.source)});`
  )
}

type Attached = { folder: FolderDatabase; pool: pg.Pool; secret: string }

/** The folder, opened or reached through its owner, a pool of connections to it, and the database's secret. */
async function attachFolder(dir: string): Promise<Attached> {
  const folder = await openFolder(dir)
  const pool = new pg.Pool({ ...folder.connection, max: 4 })
  // A connection that breaks is said by the query it breaks; the event alone would crash the process.
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  const { rows } = await pool.query<{ signing_secret: string }>(
    'select signing_secret from waitlist_private.secrets',
  )
  log.info(
    folder.pglite
      ? `opened the embedded database in ${dir} (socket .s.PGSQL.${folder.connection.port})`
      : `the embedded database in ${dir} is open in another process: signups go through it`,
  )
  return { folder, pool, secret: rows[0]!.signing_secret }
}

/** The waitlist in the embedded database; after a broken connection the next signup opens the folder anew. */
export async function embeddedStore(
  dataDir: string,
  perMinute: number,
): Promise<WaitlistStore & { folder(): Promise<FolderDatabase> }> {
  const dir = path.resolve(dataDir)
  let attached: Promise<Attached> | undefined
  const attach = () => {
    attached ??= attachFolder(dir).catch((error: unknown) => {
      attached = undefined
      throw error
    })
    return attached
  }
  const detach = async (was: Promise<Attached>) => {
    if (attached !== was) return
    attached = undefined
    const opened = await was.catch(() => undefined)
    if (!opened) return
    await opened.pool.end().catch(() => {})
    await opened.folder.close()
  }
  /** One that cannot be made drops the folder and is tried once more: nothing was sent. */
  const connect = async (signal: AbortSignal) => {
    for (let tries = 1; ; tries += 1) {
      const used = attach()
      const { pool, secret } = await untilAborted(used, signal)
      const pending = pool.connect()
      try {
        return { client: await untilAborted(pending, signal), used, secret }
      } catch (error) {
        // Given up on: a connection that comes later goes straight back.
        void pending.then(
          (late) => late.release(true),
          () => {},
        )
        if (signal.aborted || tries > 1) throw error
        await detach(used)
      }
    }
  }
  /** Whether the database this process has open still answers, an error of its own included. */
  const alive = async (used: Promise<Attached>): Promise<boolean> => {
    const pglite = (await used.catch(() => undefined))?.folder.pglite
    // Opened by another process: that process minds it.
    if (!pglite) return true
    const probe = pglite.query('select 1').then(
      () => true,
      (error: unknown) => typeof (error as { code?: unknown }).code === 'string',
    )
    // Silent for a second: busy, which is no reason to open it anew.
    return untilAborted(probe, AbortSignal.timeout(1000)).catch(() => true)
  }
  await attach()
  return {
    description: `the embedded database in ${dir}`,
    folder: async () => (await attach()).folder,
    async insert(entry, visitor, signal) {
      const { client, used, secret } = await connect(signal)
      try {
        const headers = visitorHeaders(entry, visitor, {
          perMinute,
          hashSecret: secret,
          signingSecret: secret,
        })
        await untilAborted(client.query(insertStatement(entry, headers)), signal)
        client.release()
        return 'inserted'
      } catch (error) {
        // Given up on or failed: the connection goes, and with it the insert if it has not run yet.
        client.release(true)
        const code = (error as { code?: unknown }).code
        const expected = resultOf(code)
        if (expected) return expected
        // The folder is opened anew when its database no longer answers, or the failure is not its own (no code).
        let reopen: boolean
        if (signal.aborted) reopen = !(await alive(used))
        else reopen = typeof code !== 'string'
        if (reopen) await detach(used)
        throw error
      }
    },
  }
}
