import { randomInt } from 'node:crypto'
import { mkdir, readdir, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/**
 * One process at a time opens an embedded data folder: PGlite takes no lock
 * of its own, and two processes writing one folder destroy it. The owner
 * listens on a socket in the folder, `.owner.<port>`, and serves the
 * database to every other process on `.s.PGSQL.<port>` (so `psql -h <folder>
 * -p <port>` reaches it too). The operating system closes a socket when its
 * process ends, however it ends: a crashed owner's folder is free at once.
 *
 * To claim a folder, a process listens on an owner socket of its own, then
 * asks every other one in the folder; if any answers, it closes its own and
 * steps back. Two that claim at once may both step back; never both go on.
 */
const OWNER_SOCKET = /^\.owner\.(\d+)$/

export type Owner = { port: number; who: string }
export type Claim = { port: number; release(): Promise<void> }

export const sqlSocket = (dir: string, port: number) => path.join(dir, `.s.PGSQL.${port}`)
const ownerSocket = (dir: string, port: number) => path.join(dir, `.owner.${port}`)

const self = `process ${process.pid} on ${os.hostname()}, started ${new Date(Date.now() - process.uptime() * 1000).toISOString()}`

/** What an owner socket says of its process; '' from one too busy to say; undefined where nobody listens. */
function ask(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let connected = false
    let said = ''
    const socket = net.connect(file, () => (connected = true))
    socket.setTimeout(1000, () => socket.destroy())
    socket.on('data', (chunk) => (said += chunk.toString('utf8')))
    socket.on('error', () => {})
    socket.on('close', () => resolve(connected ? said : undefined))
  })
}

/** Whether a process listens on the socket `file`. */
export function isListening(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(file, () => {
      socket.destroy()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })
}

/** The process that holds the folder, if one does (other than the owner of `except`). */
export async function findOwner(dir: string, except?: number): Promise<Owner | undefined> {
  const names = await readdir(dir).catch(() => [])
  for (const name of names) {
    const port = Number(OWNER_SOCKET.exec(name)?.[1])
    if (!port || port === except) continue
    const who = await ask(path.join(dir, name))
    if (who !== undefined) return { port, who: who || 'a process that did not say which' }
  }
  return undefined
}

function listen(server: net.Server, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(file, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/** Makes this process the folder's owner, or names the process that is. */
export async function claimFolder(dir: string): Promise<Claim | Owner> {
  if (sqlSocket(dir, 65535).length > 100) {
    throw new Error(
      `the data folder's path is too long for its sockets (${dir}): set WAITLIST_DATA_DIR to a shorter one.`,
    )
  }
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const server = net.createServer((socket) => socket.end(self))
  let port = 0
  for (let attempt = 1; !port; attempt += 1) {
    const candidate = randomInt(10_000, 65_536)
    try {
      await listen(server, ownerSocket(dir, candidate))
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
    if (/^\.(owner|s\.PGSQL)\.\d+$/.test(name) && !name.endsWith(`.${port}`)) {
      await rm(path.join(dir, name), { force: true })
    }
  }
  return { port, release }
}
