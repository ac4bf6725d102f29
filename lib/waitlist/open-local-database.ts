import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { IN_MEMORY_DATA_DIR } from '@/lib/env'
import { lockFolder, type FolderLock, type LockOptions } from './folder-lock'
import { hasHistory, isMigrationError, migrate, MigrationError, readMigrations } from './migrations'

/**
 * A local PostgreSQL (PGlite) that looks like a Supabase project with this
 * project's migrations applied: what the embedded store, the operator
 * commands and the Supabase stand-in all run on. The same migration files go
 * to the real project, so local and production rules cannot drift apart.
 */
export type LocalDatabase = {
  db: PGlite
  /** Versions of the migrations this open applied (none when the folder was up to date). */
  applied: string[]
  /** Closes the database, then lets go of its folder. */
  close(): Promise<void>
}

export type OpenOptions = Partial<LockOptions> & {
  /** The project folder holding supabase/ (default: the working directory). */
  root?: string
  /** Another migrations folder, for tests of the runner. */
  migrationsDir?: string
}

/** Whether `folder` holds a database already (PostgreSQL writes PG_VERSION when it makes one). */
export async function hasDatabase(folder: string): Promise<boolean> {
  return stat(path.join(folder, 'PG_VERSION')).then(
    () => true,
    () => false,
  )
}

/**
 * What every Supabase project has before its first migration (its roles and
 * default grants): run once, on a database the runner has never seen.
 */
async function preparePlatform(db: PGlite, root: string): Promise<void> {
  if (await hasHistory(db)) return
  await db.exec(await readFile(path.join(root, 'supabase', 'local', 'platform-roles.sql'), 'utf8'))
}

/**
 * Opens `dataDir` (or a database in memory, for {@link IN_MEMORY_DATA_DIR})
 * and brings it to this code's schema. A folder is locked first: it is this
 * process's alone until `close()`, and a folder another process holds is
 * never opened (a FolderInUseError names the holder). A folder whose history
 * disagrees with the migration files is refused with a MigrationError.
 */
export async function openLocalDatabase(
  dataDir: string = IN_MEMORY_DATA_DIR,
  options: OpenOptions = {},
): Promise<LocalDatabase> {
  const root = options.root ?? process.cwd()
  const migrationsDir = options.migrationsDir ?? path.join(root, 'supabase', 'migrations')
  const inMemory = dataDir === IN_MEMORY_DATA_DIR
  const where = inMemory ? 'in memory' : path.resolve(dataDir)
  const onLost =
    options.onLost ??
    ((error: Error) => console.error(`Lost the lock on ${where}: ${error.message}`))
  const lock: FolderLock | undefined = inMemory ? undefined : await lockFolder(dataDir, { onLost })
  let db: PGlite | undefined
  try {
    const migrations = await readMigrations(migrationsDir)
    db = await PGlite.create(inMemory ? undefined : where)
    await preparePlatform(db, root)
    const applied = await migrate(db, migrations)
    const opened = db
    return {
      db: opened,
      applied,
      async close() {
        try {
          if (!opened.closed) await opened.close()
        } finally {
          await lock?.release()
        }
      },
    }
  } catch (error) {
    await db?.close().catch(() => {})
    await lock?.release()
    if (isMigrationError(error)) {
      const database = inMemory ? 'The database in memory' : `The embedded database at ${where}`
      throw new MigrationError(`${database} cannot be opened: ${error.message}`, { cause: error })
    }
    throw error
  }
}
