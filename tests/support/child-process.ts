import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'

export type Child = {
  process: ChildProcess
  pid: number
  /** Everything it printed on stdout so far. */
  output(): string
  /** Resolves with the first stdout line matching `pattern`; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>
  /** Sends `signal` and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

/** Runs a TypeScript file of this project in a process of its own, as `tsx` would. */
export function runScript(file: string, args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exited = once(child, 'exit')
  return {
    process: child,
    pid: child.pid!,
    output: () => stdout,
    async waitFor(pattern) {
      for (;;) {
        const match = pattern.exec(stdout)
        if (match) return match
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`${file} exited before printing ${pattern}:\n${stdout}\n${stderr}`)
        }
        await Promise.race([once(child.stdout, 'data'), exited])
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
}
