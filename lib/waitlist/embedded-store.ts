import path from 'node:path'
import pg from 'pg'
import { log } from '@/lib/log'
import { openFolder, type FolderDatabase } from './data-folder'
import { resultOf, untilAborted, type WaitlistStore } from './store'
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

/** The waitlist in the embedded database; after a broken connection the next signup opens the folder anew. */
export async function embeddedStore(
  dataDir: string,
  perMinute: number,
): Promise<WaitlistStore & { folder(): Promise<FolderDatabase> }> {
  const dir = path.resolve(dataDir)
  let attached: Promise<Attached> | undefined
  const attach = () =>
    (attached ??= (async () => {
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
    })().catch((error: unknown) => {
      attached = undefined
      throw error
    }))
  const detach = async (was: Promise<Attached>) => {
    if (attached !== was) return
    attached = undefined
    const { folder, pool } = (await was.catch(() => undefined)) ?? {}
    await pool?.end().catch(() => {})
    await folder?.close()
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
  const alive = async (used: Promise<Attached>) => {
    const pglite = (await used.catch(() => undefined))?.folder.pglite
    const probe = pglite?.query('select 1').then(
      () => true,
      (error: unknown) => typeof (error as { code?: unknown }).code === 'string',
    )
    return untilAborted(probe ?? Promise.resolve(true), AbortSignal.timeout(1000)).catch(() => true)
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
        if (signal.aborted ? !(await alive(used)) : typeof code !== 'string') await detach(used)
        throw error
      }
    },
  }
}
