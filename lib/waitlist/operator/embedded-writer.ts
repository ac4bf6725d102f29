import 'server-only'
import path from 'node:path'
import type { Transaction } from '@electric-sql/pglite'
import { isFolderInUse } from '@/lib/waitlist/folder-lock'
import {
  hasDatabase,
  openLocalDatabase,
  type LocalDatabase,
} from '@/lib/waitlist/open-local-database'
import { isMigrationError } from '@/lib/waitlist/migrations'
import { isRowRefusal, RowRefusedError, WriteError, type WaitlistWriter } from './writer'

export type EmbeddedWriterOptions = {
  /** Whether a folder with no database yet may be created (import may; remove has nothing to do there). */
  create: boolean
}

async function openFolder(source: string, onLost: (error: Error) => void): Promise<LocalDatabase> {
  try {
    return await openLocalDatabase(source, { onLost })
  } catch (error) {
    if (isFolderInUse(error)) {
      const pid = error.holder?.pid
      throw new WriteError(
        `${error.message} A change to the list must not share the folder with a running server: ` +
          `stop it (Ctrl-C in its terminal${pid ? `, or kill ${pid}` : ''}), then run this again. ` +
          `count, export and stats can read the list while it runs.`,
        { cause: error },
      )
    }
    if (isMigrationError(error)) throw new WriteError(error.message, { cause: error })
    throw new WriteError(`Could not open the embedded database at ${source}.`, { cause: error })
  }
}

/**
 * Changes the embedded list in the folder itself, which means owning it:
 * the folder's lock is taken for as long as the command runs, and a folder a
 * server holds is refused, naming that server. Every statement runs as
 * Supabase's service role, the role these commands have on Supabase.
 */
export async function embeddedWriter(
  dataDir: string,
  { create }: EmbeddedWriterOptions,
): Promise<WaitlistWriter> {
  const source = path.resolve(dataDir)
  if (!create && !(await hasDatabase(source))) {
    throw new WriteError(
      `There is no embedded database at ${source}: nothing has been stored there, ` +
        `or WAITLIST_DATA_DIR points elsewhere.`,
    )
  }
  let lost: Error | undefined
  const local = await openFolder(source, (error) => (lost = error))

  async function asServiceRole<T>(what: string, run: (tx: Transaction) => Promise<T>): Promise<T> {
    if (lost) {
      throw new WriteError(`Lost the lock on ${source} while working: stopped.`, { cause: lost })
    }
    try {
      return await local.db.transaction(async (tx) => {
        await tx.exec('set local role service_role')
        return run(tx)
      })
    } catch (error) {
      const { code, message } = error as { code?: string; message: string }
      if (isRowRefusal(code)) throw new RowRefusedError(message)
      throw new WriteError(`The embedded database refused to ${what}: ${message}`, { cause: error })
    }
  }

  return {
    description: `the embedded database at ${source}`,
    remove: (email) =>
      asServiceRole('remove an address', async (tx) => {
        const { rows } = await tx.query(
          'delete from public.waitlist where lower(email) = $1 returning 1',
          [email],
        )
        return rows.length > 0
      }),
    insert: (rows) =>
      asServiceRole('import', async (tx) => {
        const { rows: result } = await tx.query<{ added: number }>(
          'select public.waitlist_import($1::json) as added',
          [JSON.stringify(rows)],
        )
        return result[0]?.added ?? 0
      }),
    close: () => local.close(),
  }
}
