import { PGlite } from '@electric-sql/pglite'

/**
 * The addresses an embedded store's folder holds, in signup order, read with
 * full rights. One process owns a PGlite folder: call it only once the server
 * that wrote them has exited.
 */
export async function storedAddresses(dataDir: string): Promise<string[]> {
  const db = await PGlite.create(dataDir)
  try {
    const { rows } = await db.query<{ email: string }>(
      'select email from public.waitlist order by id',
    )
    return rows.map((row) => row.email)
  } finally {
    await db.close()
  }
}
