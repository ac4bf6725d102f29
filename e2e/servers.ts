import { spawn } from 'node:child_process'
import { DEMO_ANON_KEY, TEST_SIGNING_SECRET } from '../tests/harness/postgrest'
import { noSupabase } from '../tests/support/environments'
import { answering, listening } from '../tests/support/ports'

// Both browser suites' servers: the Supabase stand-in, signing inserts as production does and where
// every notice is reachable, and the production build on it. Site on port `base`, stand-in on +1.
type Server = { command: string; url: string; env: Record<string, string> }

export function suiteServers(base: number) {
  const site = `http://127.0.0.1:${base}`
  const harness = `http://127.0.0.1:${base + 1}`
  const servers: Server[] = [
    {
      command: 'npx tsx tests/harness/serve.ts',
      url: `${harness}/health`,
      // Every test posts from 127.0.0.1, many within a minute: the limits are tested on servers of their own.
      env: {
        HARNESS_PORT: String(base + 1),
        HARNESS_CEILING: 'none',
        HARNESS_SIGNING_SECRET: TEST_SIGNING_SECRET,
      },
    },
    {
      // next start, with the failures the tests cause on purpose marked in its log.
      command: `npx tsx e2e/site-server.ts -H 127.0.0.1 -p ${base}`,
      url: site,
      env: {
        ...noSupabase,
        SUPABASE_URL: harness,
        SUPABASE_ANON_KEY: DEMO_ANON_KEY,
        WAITLIST_SIGNING_SECRET: TEST_SIGNING_SECRET,
        WAITLIST_STORE_TIMEOUT_MS: '2000',
        WAITLIST_RATE_LIMIT_PER_MINUTE: '0',
      },
    },
  ]
  return { site, servers }
}

/** Starts the suite's servers as Playwright does for its own (stderr passed through); `stop` ends them. */
export async function startSuiteServers(base: number) {
  const { site, servers } = suiteServers(base)
  for (const { url } of servers)
    if (await listening(url))
      throw new Error(`${url} already answers: stop what runs there, or set E2E_PORT_BASE`)
  const started = servers.map(({ command, env }) =>
    spawn(command, {
      shell: true,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
      // A group of its own, so that `stop` ends the command and all it started.
      detached: true,
    }),
  )
  const stop = () => {
    for (const child of started) if (child.exitCode === null) process.kill(-child.pid!)
  }
  try {
    for (const [i, { url }] of servers.entries())
      await answering(url, 60_000, () => started[i]!.exitCode === null)
  } catch (error) {
    stop()
    throw error
  }
  return { site, stop }
}
