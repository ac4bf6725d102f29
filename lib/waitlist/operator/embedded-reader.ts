import 'server-only'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { describeOwner, folderHolder } from '@/lib/waitlist/folder-lock'
import { openLocalDatabase, type LocalDatabase } from '@/lib/waitlist/open-local-database'
import { isMigrationError } from '@/lib/waitlist/migrations'
import { copyDatabaseFolder, unreadableCopy } from './folder-copy'
import { ReadError, type WaitlistReader, type WaitlistRow } from './reader'
import { parseStats } from './stats'

/** Said after where the list is read from, when a server holds the folder. */
async function heldNote(source: string): Promise<string> {
  const held = await folderHolder(source)
  if (!held) return ''
  const who = held.holder ? describeOwner(held.holder) : 'a server'
  return ` (read from a copy; ${who} holds it, so its newest signups may be missing: stop it for an exact list)`
}

/**
 * The list, read from a copy of the folder (see folder-copy.ts) brought to
 * this code's schema like any database. A server that is running may have
 * signups the copy misses.
 */
export async function embeddedReader(dataDir: string): Promise<WaitlistReader> {
  const source = path.resolve(dataDir)
  const folder = await copyDatabaseFolder(source)
  let local: LocalDatabase
  let note: string
  try {
    note = await heldNote(source)
    local = await openLocalDatabase(folder.path)
  } catch (error) {
    await folder.discard()
    if (isMigrationError(error)) {
      throw new ReadError(error.message.replace(folder.path, source), { cause: error })
    }
    throw unreadableCopy(source, error)
  }
  const db: PGlite = local.db
  // The same text Supabase sends for a timestamptz: ISO 8601 in UTC.
  await db.exec(`set time zone 'UTC'`)
  return {
    description: `the embedded database at ${source}${note}`,
    async count() {
      const result = await db.query<{ n: number }>('select count(*)::int as n from public.waitlist')
      return result.rows[0]?.n ?? 0
    },
    async has(email) {
      const { rows } = await db.query('select 1 from public.waitlist where lower(email) = $1', [
        email,
      ])
      return rows.length > 0
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
    async stats(days) {
      try {
        const { rows } = await db.transaction(async (tx) => {
          // The role these commands have on Supabase, the only one that may run the function.
          await tx.exec('set local role service_role')
          return tx.query<{ stats: unknown }>('select public.waitlist_stats($1) as stats', [days])
        })
        return parseStats(rows[0]?.stats)
      } catch (error) {
        if (error instanceof ReadError) throw error
        throw new ReadError(`Could not compute the figures: ${(error as Error).message}`, {
          cause: error,
        })
      }
    },
    async close() {
      await local.close()
      await folder.discard()
    },
  }
}
