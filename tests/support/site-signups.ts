import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { openFolder } from '@/lib/waitlist/data-folder'
import { lit } from '@/lib/waitlist/embedded-store'
import { visitorHeaders } from '@/lib/waitlist/visitor'

/**
 * The site's signup, as the embedded store sends it: one message that inserts
 * as `anon`, signed with the database's secret when one is set. Resolves to a
 * function that signs one address up.
 */
export async function site(db: Pick<pg.Client, 'query'>) {
  const { rows } = await db.query<{ secret: string | null }>(
    'select signing_secret as secret from waitlist_private.secrets',
  )
  const secret = rows[0]?.secret ?? undefined
  return async (email: string) => {
    const entry = { email, source: 'cta_section' } as const
    const signing = { perMinute: 0, hashSecret: secret ?? '', signingSecret: secret }
    const headers = visitorHeaders(entry, { trusted: false }, signing)
    await db.query(
      `set local role anon; select set_config('request.headers', ${lit(JSON.stringify(headers))}, true); ` +
        `insert into public.waitlist (email, source) values (${lit(email)}, ${lit(entry.source)})`,
    )
  }
}

/**
 * Run as a script (`node --conditions=react-server --import tsx` this file
 * FOLDER), it is the site while it runs: it opens the data folder, taking it
 * over, and signs someone up every few milliseconds, printing each address
 * once the database has stored it, until SIGTERM; then `errors N`.
 */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folder = await openFolder(process.argv[2]!)
  const client = new pg.Client(folder.connection)
  await client.connect()
  // The ceiling, 600 a minute from everyone together, would refuse a stream this fast.
  await client.query('update waitlist_private.signup_limits set signups_per_minute = 0')
  const signUp = await site(client)
  let stopping = false
  process.once('SIGTERM', () => (stopping = true))
  console.log(folder.pglite ? 'ready, owning the folder' : 'ready, through its owner')
  let errors = 0
  for (let n = 1; !stopping; n += 1) {
    const email = `site-${n}@example.com`
    try {
      await signUp(email)
      console.log(email)
    } catch (error) {
      errors += 1
      console.error(`signup ${n}: ${(error as Error).message}`)
    }
    await sleep(3)
  }
  await client.end()
  await folder.close()
  console.log(`errors ${errors}`)
}
