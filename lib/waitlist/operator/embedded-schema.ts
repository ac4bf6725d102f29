import 'server-only'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { hasHistory, recordedVersions } from '@/lib/waitlist/migrations'
import { hasSchemaCheck, readLocalSchemaReport } from '@/lib/waitlist/schema-check'
import { knownReport, type SchemaState } from './check'
import { copyDatabaseFolder, unreadableCopy } from './folder-copy'

/**
 * What the embedded database in `dataDir` says of its schema, read from a
 * copy of the folder as it is: never migrated, since what is missing is what
 * the check is for. Its record of migrations is read directly, so a folder
 * made by older code, without the check function, still names each one missing.
 */
export async function embeddedSchemaState(dataDir: string): Promise<SchemaState> {
  const source = path.resolve(dataDir)
  const where = `the embedded database at ${source}`
  const folder = await copyDatabaseFolder(source)
  try {
    const db = await PGlite.create(folder.path).catch((error: unknown) => {
      throw unreadableCopy(source, error)
    })
    try {
      const applied = (await hasHistory(db)) ? await recordedVersions(db) : null
      if (!(await hasSchemaCheck(db)))
        return { where, kind: 'embedded', applied, limits: undefined }
      const report = knownReport(await readLocalSchemaReport(db), where)
      return { where, kind: 'embedded', applied, limits: report }
    } finally {
      await db.close()
    }
  } finally {
    await folder.discard()
  }
}
