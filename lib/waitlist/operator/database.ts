import pg from 'pg'
import { DEFAULT_DATA_DIR, SUPABASE_URL_VARS, type Env } from '@/lib/env'
import { openFolder } from '@/lib/waitlist/data-folder'

/** A mistake in how the commands were set up: said in one line, exit status 2. */
export class SetupError extends Error {}

/**
 * The data folder's database did not open (its path too long for a socket, its
 * owner not answering, a migration refused): like a connection that failed, a
 * code of its own has it said in one line, exit status 1, not as a crash.
 */
class FolderError extends Error {
  readonly code = 'WAITLIST_FOLDER'
}

export type Database = {
  /** One connection; every statement the commands send is one simple-protocol message. */
  client: pg.Client
  kind: 'supabase' | 'embedded'
  /** The database, as the commands name it. */
  where: string
  close(): Promise<void>
}

/**
 * The database the site writes to, over SQL: on Supabase through its
 * connection string in SUPABASE_DB_URL; else the embedded database in
 * WAITLIST_DATA_DIR, through the socket of the server that has it open, or
 * opened here (and held until the command ends) when no server runs.
 */
export async function connect(env: Env): Promise<Database> {
  const url = env.SUPABASE_DB_URL?.trim()
  const siteUrl = SUPABASE_URL_VARS.find((name) => env[name]?.trim())
  if (!url && siteUrl) {
    throw new SetupError(
      `${siteUrl} is set, so the list is on Supabase: set SUPABASE_DB_URL to the project's connection string ` +
        `(the URI under the dashboard's Connect button, with the database password), as psql takes it.`,
    )
  }
  if (url) {
    let host: string
    try {
      host = new URL(url).host
    } catch {
      throw new SetupError('SUPABASE_DB_URL is not a postgresql:// connection string.')
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 15_000 })
    client.on('error', () => {})
    await client.connect()
    return {
      client,
      kind: 'supabase',
      where: `the Supabase database at ${host}`,
      close: () => client.end(),
    }
  }
  const dataDir = env.WAITLIST_DATA_DIR?.trim() || DEFAULT_DATA_DIR
  const folder = await openFolder(dataDir).catch((error: Error) => {
    throw new FolderError(error.message, { cause: error })
  })
  const client = new pg.Client(folder.connection)
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (error) {
    await folder.close()
    throw error
  }
  const held = folder.pglite ? '' : ', through the server that has it open'
  return {
    client,
    kind: 'embedded',
    where: `the embedded database in ${folder.connection.host}${held}`,
    async close() {
      await client.end().catch(() => {})
      await folder.close()
    },
  }
}
