import { spawnSync, type StdioOptions } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startNextServer } from '../tests/support/next-server'

/** Builds `.`, the site, or `bench/minimal`, as `next build` does. */
export function build(dir: string): void {
  console.log(`Building ${dir} ...`)
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
  const stdio: StdioOptions = ['ignore', 'ignore', 'inherit']
  const result = spawnSync('npx', ['next', 'build', dir], { stdio, env })
  if (result.status !== 0) throw new Error(`Building ${dir} failed`)
}

export type Server = { url: string; stop: () => unknown }

/** `next start` on 127.0.0.1:port, resolved once it answers; the site's signups go to a temporary folder. */
export function start(dir: string, port: number): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'waitlist-bench-'))
  return startNextServer({ dir, port, env: { WAITLIST_DATA_DIR: dataDir } })
}
