import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import path from 'node:path'

const NEXT_BIN = path.join('node_modules', 'next', 'dist', 'bin', 'next')

export type NextServer = {
  url: string
  pid: number
  /** Everything the server has logged so far, stdout and stderr together. */
  log(): string
  /** Resolves once a line of the log matches `pattern`; rejects if the server exits first. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<void>
  /** Sends `signal` (SIGTERM, or SIGKILL for a crash) and resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

export type StartOptions = {
  port: number
  env: Record<string, string>
  /** Each chunk of output as it arrives, e.g. to count lines. */
  onOutput?: (text: string) => void
}

/** `next start` on the production build (`npm run build` first), loopback only, resolved once it answers. */
export async function startNextServer({ port, env, onOutput }: StartOptions): Promise<NextServer> {
  if (!existsSync(path.join('.next', 'BUILD_ID'))) {
    throw new Error('No production build found: run `npm run build` first.')
  }
  const url = `http://127.0.0.1:${port}`
  const child = spawn(
    process.execPath,
    [NEXT_BIN, 'start', '-H', '127.0.0.1', '-p', String(port)],
    {
      env: { ...process.env, ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  const watch = (chunk: Buffer) => {
    const text = chunk.toString('utf8')
    output += text
    onOutput?.(text)
  }
  child.stdout.on('data', watch)
  child.stderr.on('data', watch)
  const exited = once(child, 'exit').then(() => {})
  const gone = () => child.exitCode !== null || child.signalCode !== null

  const server: NextServer = {
    url,
    pid: child.pid!,
    log: () => output,
    async waitForLog(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      while (!pattern.test(output)) {
        if (gone()) throw new Error(`The server exited before logging ${pattern}:\n${output}`)
        if (Date.now() > deadline) throw new Error(`The server never logged ${pattern}:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    async stop(signal = 'SIGTERM') {
      if (!gone()) child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    },
  }

  const deadline = Date.now() + 60_000
  for (;;) {
    if (gone()) throw new Error(`The server exited at start:\n${output}`)
    try {
      if ((await fetch(url)).ok) return server
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop('SIGKILL')
      throw new Error(`The server did not answer within 60 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
