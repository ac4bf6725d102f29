import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { answering, listening, unusedPort } from './ports'

export const NEXT_BIN = path.join('node_modules', 'next', 'dist', 'bin', 'next')

/** What a server logs once its store is open: a test waits for it before posting (`readyOutput`). */
export const STORE_OPEN = /signups go to /

export type NextServerOptions = {
  /** The app's folder (default the project itself; `bench/minimal` for the bench's floor). */
  dir?: string
  /** A port nothing listens on, unless given. */
  port?: number
  /** Added to this process's environment; a blank value reads as unset to the site. */
  env: Record<string, string>
  /** Ready only once the output also matches this, e.g. {@link STORE_OPEN}. */
  readyOutput?: RegExp
}

export type NextServer = {
  /** The site, at 127.0.0.1. */
  url: string
  /** Everything the server has written so far, stdout and stderr together. */
  output(): string
  /** Resolves once the output matches `pattern`; rejects if the server exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>
  /** Sends `signal` (SIGTERM, or SIGKILL for a crash) and resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

/** Resolves once `/` answers 200; if it never does, the error carries what the server said. */
export async function startNextServer({
  dir = '.',
  port,
  env,
  readyOutput,
}: NextServerOptions): Promise<NextServer> {
  if (!existsSync(path.join(dir, '.next', 'BUILD_ID'))) {
    throw new Error(`No production build found in ${dir}: run \`npm run build\` first.`)
  }
  port ??= await unusedPort()
  // Something already answering there would pass for this server.
  if (await listening(`http://127.0.0.1:${port}/`))
    throw new Error(`Port ${port} is already in use: stop what runs there, or pick another`)
  const args = [NEXT_BIN, 'start', dir, '-p', String(port), '-H', '127.0.0.1']
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const watch = (chunk: Buffer) => (output += chunk.toString('utf8'))
  child.stdout.on('data', watch)
  child.stderr.on('data', watch)
  const exited = once(child, 'exit').then(() => {})
  const gone = () => child.exitCode !== null || child.signalCode !== null

  const server: NextServer = {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async waitForOutput(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      while (!pattern.test(output)) {
        if (gone()) throw new Error(`The server exited before writing ${pattern}:\n${output}`)
        if (Date.now() > deadline) throw new Error(`The server never wrote ${pattern}:\n${output}`)
        await sleep(100)
      }
    },
    async stop(signal = 'SIGTERM') {
      if (gone()) return
      child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    },
  }

  try {
    await answering(`${server.url}/`, 60_000, () => !gone())
    if (readyOutput) await server.waitForOutput(readyOutput)
  } catch (error) {
    await server.stop('SIGKILL')
    throw new Error(`next start: ${(error as Error).message}:\n${output.slice(-4000)}`)
  }
  return server
}
