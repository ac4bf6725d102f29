import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { accessSync, constants } from 'node:fs'
import path from 'node:path'

/** `program args` in a process group of its own, killed whole if it outlives a minute. */
export async function runProcess(program: string, args: string[], env: Record<string, string>) {
  const child = spawn(program, args, {
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let [stdout, stderr] = ['', '']
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000)
  const [status] = (await once(child, 'close')) as [number | null]
  clearTimeout(timer)
  return { status, stdout, said: stderr.trimEnd().split('\n') }
}

/** The commands as a process of their own, for what only a process shows: how it ends, and all it prints. */
export const cliProcess = (args: string[], env: Record<string, string>) =>
  runProcess(process.execPath, ['--import', 'tsx', 'scripts/waitlist.ts', ...args], env)

/** Where `program` is on PATH, if it is. */
export function which(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    try {
      accessSync(path.join(dir, program), constants.X_OK)
      return path.join(dir, program)
    } catch {}
  }
}
