import pg from 'pg'
import { openFolder } from '@/lib/waitlist/data-folder'
import { insertStatement } from '@/lib/waitlist/embedded-store'
import { visitorHeaders } from '@/lib/waitlist/visitor'

/** The embedded store's signup: one insert as `anon`, signed when the database has a secret. */
export async function site(db: Pick<pg.Client, 'query'>) {
  const { rows } = await db.query<{ secret: string | null }>(
    'select signing_secret as secret from waitlist_private.secrets',
  )
  const secret = rows[0]?.secret ?? undefined
  return async (email: string) => {
    const entry = { email, source: 'cta_section' } as const
    const signing = { perMinute: 0, hashSecret: secret ?? '', signingSecret: secret }
    const headers = visitorHeaders(entry, { trusted: false }, signing)
    await db.query(insertStatement(entry, headers))
  }
}

/** The embedded list in `dir`, made as the site makes it at its first start: the commands make none. */
export async function siteFolder(dir: string): Promise<string> {
  await (await openFolder(dir)).close()
  return dir
}
