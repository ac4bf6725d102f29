import { randomBytes, randomInt } from 'node:crypto'
import { once } from 'node:events'
import { mkdir, readdir, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { PGlite } from '@electric-sql/pglite'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { log } from '@/lib/log'
import { untilAborted } from '@/lib/until-aborted'
import { migrate } from './migrations'

// PGlite takes no lock: a data folder's owner holds a socket in it, which the system closes on any exit.
const OWNER_SOCKET = /^\.owner\.(\d+)$/

export type Owner = { port: number; who: string }
export type Claim = { port: number; release(): Promise<void> }

const sqlSocket = (dir: string, port: number) => path.join(dir, `.s.PGSQL.${port}`)

const self = `process ${process.pid} on ${os.hostname()}, started ${new Date(Date.now() - process.uptime() * 1000).toISOString()}`

/** Who listens on `socket`, as it says ('' if not within `answerWithinMs`, or that is 0); undefined: nobody. */
export function askWho(socket: string, answerWithinMs = 1000): Promise<string | undefined> {
  return new Promise((resolve) => {
    let said: string | undefined
    const client = net.connect(socket, () => {
      said = ''
      if (!answerWithinMs) client.destroy()
    })
    if (answerWithinMs) client.setTimeout(answerWithinMs, () => client.destroy())
    client.on('data', (chunk) => {
      said += chunk.toString('utf8')
    })
    client.on('error', () => {})
    client.on('close', () => resolve(said))
  })
}

export async function findOwner(dir: string, except?: number, answerWithinMs?: number) {
  const names = await readdir(dir).catch(() => [])
  for (const name of names) {
    const port = Number(OWNER_SOCKET.exec(name)?.[1])
    if (!port || port === except) continue
    const who = await askWho(path.join(dir, name), answerWithinMs)
    if (who !== undefined) return { port, who: who || 'a process that did not say which' }
  }
  return undefined
}

/** This process's claim, or the owner: two claiming at once may both step back, never both go on. */
export async function claimFolder(dir: string): Promise<Claim | Owner> {
  if (sqlSocket(dir, 65535).length > 100)
    throw new Error(
      `the data folder's path is too long for its sockets (${dir}): set WAITLIST_DATA_DIR to a shorter one.`,
    )
  await mkdir(dir, { recursive: true, mode: 0o700 })
  // One that asked and hung up before the answer (it gave up waiting) is no failure of the owner.
  const server = net.createServer((socket) => socket.on('error', () => {}).end(self))
  let port = 0
  for (let attempt = 1; !port; attempt += 1) {
    const candidate = randomInt(10_000, 65_536)
    try {
      await once(server.listen(path.join(dir, `.owner.${candidate}`)), 'listening')
      port = candidate
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw error
    }
  }
  const release = () => new Promise<void>((resolve) => server.close(() => resolve()))
  const rival = await findOwner(dir, port)
  if (rival) {
    await release()
    return rival
  }
  // What owners before this one left behind: none of them lives now.
  for (const name of await readdir(dir)) {
    if (/^\.(owner|s\.PGSQL)\.\d+$/.test(name) && !name.endsWith(`.${port}`))
      await rm(path.join(dir, name), { force: true })
  }
  return { port, release }
}

/** pglite-socket runs one message at a time: send each statement as one simple-protocol message. */
export type FolderDatabase = {
  /** For pg: the host is the folder, where the socket is. */
  connection: { host: string; port: number; user: 'postgres'; database: 'postgres' }
  /** Set when this process is the owner. */
  pglite?: PGlite
  close(): Promise<void>
}

const connection = (host: string, port: number) =>
  ({ host, port, user: 'postgres', database: 'postgres' }) as const

async function serve(dir: string, claim: Claim): Promise<FolderDatabase> {
  let db: PGlite | undefined
  try {
    db = await PGlite.create(dir, { extensions: { pgcrypto } })
    const applied = await migrate(db)
    if (applied.length > 0)
      log.info(`applied ${applied.join(', ')} to the embedded database in ${dir}`)
    // The database signs its own inserts: a secret of its own, made once and kept in the folder.
    await db.query(
      'update waitlist_private.secrets set signing_secret = $1 where signing_secret is null',
      [randomBytes(32).toString('base64url')],
    )
    const socket = sqlSocket(dir, claim.port)
    await rm(socket, { force: true })
    const server = new PGLiteSocketServer({ db, path: socket, maxConnections: 16 })
    await server.start()
    const opened = db
    return {
      connection: connection(dir, claim.port),
      pglite: opened,
      async close() {
        await server.stop().catch(() => {})
        await opened.close().catch(() => {})
        await claim.release()
      },
    }
  } catch (error) {
    await db?.close().catch(() => {})
    await claim.release()
    throw error
  }
}

/** Waiting on the disk or another process ends at `timeoutMs`; opening a claimed folder runs to its end. */
export async function openFolder(dataDir: string, timeoutMs = 10_000): Promise<FolderDatabase> {
  const dir = path.resolve(dataDir)
  const deadline = AbortSignal.timeout(timeoutMs)
  const deadlineAt = Date.now() + timeoutMs
  let waitedOn = 'its disk did not answer'
  const late = () =>
    new Error(`the embedded database in ${dir} did not open within ${timeoutMs} ms: ${waitedOn}`)
  const bounded = <T>(step: Promise<T>, letGoLate?: (late: T) => unknown) =>
    untilAborted(step, deadline).catch((error: unknown) => {
      if (!deadline.aborted) throw error
      if (letGoLate) void step.then(letGoLate, () => {})
      throw late()
    })
  for (;;) {
    // A holder too stuck to say who it is is still found before the deadline, and said as stuck.
    const whoWithin = Math.min(1000, Math.max(0, deadlineAt - Date.now() - 50))
    const owner = await bounded(findOwner(dir, undefined, whoWithin))
    if (!owner) {
      // A claim made after the deadline is let go at once.
      const claim = await bounded(claimFolder(dir), async (late) => {
        if ('release' in late) await late.release()
      })
      if ('release' in claim) return serve(dir, claim)
      waitedOn = `it is held by ${claim.who}`
    } else {
      // The owner's database is open once it answers on its SQL socket.
      const serving = await bounded(askWho(sqlSocket(dir, owner.port), 0))
      if (serving !== undefined)
        return { connection: connection(dir, owner.port), close: async () => {} }
      waitedOn = `it is held by ${owner.who}`
    }
    if (deadline.aborted) throw late()
    await sleep(50 + Math.random() * 150)
  }
}
