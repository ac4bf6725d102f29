import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'

const nextBin = 'node_modules/next/dist/bin/next'

/**
 * `dir` is a Next.js app folder: `.` for the site, built as it ships
 * (`npm run build`: `next build`, then its stylesheet inlined), or
 * `bench/minimal` for the floor it is compared with, built by `next build` alone.
 */
export function build(dir: string): void {
  console.log(`Building ${dir} ...`)
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
  const stdio: StdioOptions = ['ignore', 'ignore', 'inherit']
  const result =
    dir === '.'
      ? spawnSync('npm', ['run', 'build'], { stdio, env })
      : spawnSync(process.execPath, [nextBin, 'build', dir], { stdio, env })
  if (result.status !== 0) throw new Error(`Building ${dir} failed`)
}

export type Server = { url: string; stop: () => void }

/** `next start` on 127.0.0.1:port, resolved once it answers. The site keeps its signups in memory. */
export async function start(dir: string, port: number): Promise<Server> {
  const url = `http://127.0.0.1:${port}/`
  // Something already answering there would be measured in place of this build.
  const answering = await fetch(url).then(
    () => true,
    () => false,
  )
  if (answering)
    throw new Error(`Port ${port} is already in use: stop what runs there, or pass --port`)
  const child: ChildProcess = spawn(
    process.execPath,
    [nextBin, 'start', dir, '-H', '127.0.0.1', '-p', String(port)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', WAITLIST_DATA_DIR: 'memory://' },
    },
  )
  const stop = () => void child.kill('SIGTERM')
  for (let attempt = 0; attempt < 120; attempt++) {
    if (child.exitCode !== null) throw new Error(`next start ${dir} exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).ok) return { url, stop }
    } catch {
      // Not listening yet.
    }
    await sleep(250)
  }
  stop()
  throw new Error(`next start ${dir} did not answer on ${url}`)
}
