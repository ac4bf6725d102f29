import { once } from 'node:events'
import { mkdir, writeFile } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'

/** A data folder held as a stuck server holds it: its sockets take connections and say nothing. */
export async function muteFolder(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true })
  await writeFile(path.join(dir, 'PG_VERSION'), '17\n')
  const port = 20_000 + (process.pid % 40_000)
  const sockets: net.Socket[] = []
  const servers = [`.owner.${port}`, `.s.PGSQL.${port}`].map((name) => {
    const server = net.createServer((socket) => void sockets.push(socket.on('error', () => {})))
    return { server, listening: once(server.listen(path.join(dir, name)), 'listening') }
  })
  await Promise.all(servers.map(({ listening }) => listening))
  return async () => {
    for (const socket of sockets) socket.destroy()
    await Promise.all(servers.map(({ server }) => new Promise((done) => server.close(done))))
  }
}
