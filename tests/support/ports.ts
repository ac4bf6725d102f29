import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

/** A loopback port that nothing listens on (it was free a moment ago): a backend that refuses connections. */
export async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Whether anything answers at `url` now, with any status: a port taken, before a server starts there. */
export const listening = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
    () => true,
    () => false,
  )

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
    (response) => response.ok,
    () => false,
  )

/** Resolves once `url` answers 2xx, within `withinMs`; `alive` says whether to go on waiting. */
export async function answering(url: string, withinMs: number, alive = () => true) {
  const deadline = Date.now() + withinMs
  while (Date.now() < deadline && alive()) {
    if (await answers(url)) return
    await sleep(200)
  }
  throw new Error(
    `${url} did not answer${alive() ? ` within ${withinMs} ms` : ': its server exited'}`,
  )
}
