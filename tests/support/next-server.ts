import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const NEXT_BIN = path.join('node_modules', 'next', 'dist', 'bin', 'next')

export type NextServerOptions = {
  /** `start` serves the production build (`npm run build` first); `dev` compiles on demand. */
  command: 'start' | 'dev'
  port: number
  /** The address to listen on; left out, Next listens on every interface, as `npm run dev` does. */
  host?: string
  /** Added to this process's environment; a blank value reads as unset to the site. */
  env: Record<string, string>
  /** How long `/` may take to answer 200 (a first dev compile on a busy machine takes a while). */
  readyWithinMs: number
  /** Every chunk the server writes to stdout or stderr. */
  onOutput?: (text: string) => void
}

export type NextServer = {
  /** The site at 127.0.0.1, whatever it listens on. */
  url: string
  /** Everything the server has written so far. */
  output(): string
  stop(): Promise<void>
}

/** Starts `next start` or `next dev` and resolves once `/` answers 200; its output is in the error if it does not. */
export async function startNextServer(options: NextServerOptions): Promise<NextServer> {
  if (options.command === 'start' && !existsSync(path.join('.next', 'BUILD_ID'))) {
    throw new Error('No production build found: run `npm run build` first.')
  }
  const args = [NEXT_BIN, options.command, '-p', String(options.port)]
  if (options.host) args.push('-H', options.host)
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const watch = (chunk: Buffer) => {
    const text = chunk.toString('utf8')
    output += text
    options.onOutput?.(text)
  }
  child.stdout.on('data', watch)
  child.stderr.on('data', watch)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  async function stop(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return
    // `next dev` passes SIGTERM on to the server it forks; SIGKILL only if it will not go.
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }

  const url = `http://127.0.0.1:${options.port}`
  const deadline = Date.now() + options.readyWithinMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`next ${options.command} exited with ${child.exitCode}:\n${output}`)
    }
    try {
      const response = await fetch(`${url}/`, {
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      })
      if (response.ok) return { url, output: () => output, stop }
    } catch {
      // Not listening yet, or still compiling.
    }
    await sleep(250)
  }
  await stop()
  throw new Error(
    `next ${options.command} did not answer within ${options.readyWithinMs} ms:\n${output.slice(-4000)}`,
  )
}
