import 'server-only'
import { cp, mkdtemp, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { ReadError, type WaitlistReader, type WaitlistRow } from './reader'

/**
 * PGlite keeps no lock on its folder, and two processes opening the same one
 * at once can corrupt it. So the list is read from a copy: the server's
 * folder is never opened here, whether or not a dev server is running on it.
 * A server that is running may have signups the copy misses.
 */
export async function embeddedReader(dataDir: string): Promise<WaitlistReader> {
  const source = path.resolve(dataDir)
  const isDatabase = await stat(path.join(source, 'PG_VERSION')).then(
    () => true,
    () => false,
  )
  if (!isDatabase) {
    throw new ReadError(
      `There is no embedded database at ${source}: no signup has been stored on this machine yet, ` +
        `or WAITLIST_DATA_DIR points elsewhere.`,
    )
  }
  const mayBeInUse = await stat(path.join(source, 'postmaster.pid')).then(
    () => true,
    () => false,
  )
  const copy = await mkdtemp(path.join(os.tmpdir(), 'waitlist-read-'))
  const discard = () => rm(copy, { recursive: true, force: true })
  let db: PGlite
  try {
    await cp(source, copy, { recursive: true })
    await rm(path.join(copy, 'postmaster.pid'), { force: true })
    db = await PGlite.create(copy)
    // The same text Supabase sends for a timestamptz: ISO 8601 in UTC.
    await db.exec(`set time zone 'UTC'`)
  } catch (error) {
    await discard()
    throw new ReadError(
      `Could not open a copy of the embedded database at ${source}. ` +
        `If a server is writing to it, stop the server and try again.`,
      { cause: error },
    )
  }
  return {
    description:
      `the embedded database at ${source}` +
      (mayBeInUse
        ? ' (read from a copy; if a server is running on it, its newest signups may be missing: stop it for an exact list)'
        : ''),
    async count() {
      const result = await db.query<{ n: number }>('select count(*)::int as n from public.waitlist')
      return result.rows[0]?.n ?? 0
    },
    async *pages(pageSize) {
      // Keyset paging on the primary key: every page costs the same, however deep.
      for (let after = 0; ;) {
        const result = await db.query<WaitlistRow & { id: number }>(
          `select id::float8 as id, email, source, to_json(created_at) #>> '{}' as created_at
             from public.waitlist where id > $1 order by id limit $2`,
          [after, pageSize],
        )
        const last = result.rows.at(-1)
        if (!last) return
        yield result.rows.map(({ email, source, created_at }) => ({ email, source, created_at }))
        after = last.id
      }
    },
    async close() {
      await db.close()
      await discard()
    },
  }
}
