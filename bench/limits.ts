/**
 * The signup limits under load, on the Supabase stand-in (`npm run bench:load -- --limits`):
 * - what the limits cost a signup: the same 1,000 distinct signups with the
 *   limits' trigger switched off in the database, and on with a ceiling that
 *   never binds, runs interleaved;
 * - what they hold: two servers on one database, at the migration's default
 *   ceiling (600) and allowance (10), take a burst under the ceiling, then a
 *   flood of made-up clients, then inserts sent straight to the data service
 *   with the public key, then one visitor posting to both.
 */
import { startSupabaseHarness, type SupabaseHarness } from '../tests/harness/postgrest'
import { noSupabase } from '../tests/support/environments'
import {
  postSignup,
  readSignupForm,
  type Outcome,
  type SignupForm,
} from '../tests/support/form-post'
import { startNextServer, type NextServer } from '../tests/support/next-server'
import { median, percentile, runPool } from './load-pool'

type Sent = { outcome: Outcome | 'network'; status: number; ms: number }

type Site = { server: NextServer; form: SignupForm }

const REQUEST_TIMEOUT_MS = 30_000

async function startSites(harness: SupabaseHarness, ports: number[]): Promise<Site[]> {
  const sites: Site[] = []
  for (const port of ports) {
    const server = await startNextServer({
      port,
      env: {
        ...noSupabase,
        SUPABASE_URL: harness.url,
        SUPABASE_ANON_KEY: harness.anonKey,
        // The bench names a made-up client per post in X-Forwarded-For, as a proxy would.
        WAITLIST_TRUSTED_PROXY: '1',
      },
    })
    sites.push({ server, form: await readSignupForm(`${server.url}/`) })
  }
  return sites
}

/** Posts `count` signups round-robin over `sites`, `concurrency` at a time, each from `client(i)`. */
async function send(
  sites: Site[],
  count: number,
  tag: string,
  client: (i: number) => string,
  concurrency: number,
): Promise<{ sent: Sent[]; wallMs: number }> {
  const jobs = Array.from({ length: count }, (_, i) => async (): Promise<Sent> => {
    const started = performance.now()
    try {
      const result = await postSignup(sites[i % sites.length]!.form, {
        fields: [['email', `${tag}-${i}@example.com`]],
        headers: { 'x-forwarded-for': client(i) },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
      return { outcome: result.outcome, status: result.status, ms: performance.now() - started }
    } catch {
      return { outcome: 'network', status: 0, ms: performance.now() - started }
    }
  })
  const { results, wallMs } = await runPool(jobs, concurrency)
  return { sent: results, wallMs }
}

const madeUp = (block: number) => (i: number) =>
  `10.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`

async function stored(harness: SupabaseHarness, pattern: string): Promise<number> {
  const { rows } = await harness.db.query<{ n: number }>(
    'select count(*)::int as n from public.waitlist where email like $1',
    [pattern],
  )
  return rows[0]?.n ?? 0
}

const count = (sent: Sent[], outcome: Sent['outcome']) =>
  sent.filter((s) => s.outcome === outcome).length
const fmt = (ms: number) => `${ms.toFixed(0)} ms`

/** The limits' cost: 1,000 signups with the trigger off, then on (a ceiling that never binds), interleaved. */
async function triggerCost(runs: number, port: number): Promise<boolean> {
  const harness = await startSupabaseHarness({ signupCeilingPerMinute: 1_000_000 })
  const sites = await startSites(harness, [port])
  const figures: Record<
    'off' | 'on',
    { rate: number[]; p50: number[]; p95: number[]; p99: number[] }
  > = {
    off: { rate: [], p50: [], p95: [], p99: [] },
    on: { rate: [], p50: [], p95: [], p99: [] },
  }
  let held = true
  try {
    await send(sites, 20, 'warmup', madeUp(99), 5)
    for (let run = 0; run < runs; run += 1) {
      const order: ('off' | 'on')[] = run % 2 ? ['on', 'off'] : ['off', 'on']
      for (const mode of order) {
        await harness.db.exec(
          `alter table public.waitlist ${mode === 'on' ? 'enable' : 'disable'} trigger limit_signups`,
        )
        const tag = `cost-${mode}-${run}`
        const { sent, wallMs } = await send(
          sites,
          1000,
          tag,
          madeUp(run * 2 + (mode === 'on' ? 1 : 0)),
          50,
        )
        const latencies = sent.map((s) => s.ms)
        figures[mode].rate.push(sent.length / (wallMs / 1000))
        figures[mode].p50.push(percentile(latencies, 50))
        figures[mode].p95.push(percentile(latencies, 95))
        figures[mode].p99.push(percentile(latencies, 99))
        const rows = await stored(harness, `${tag}-%`)
        if (rows !== 1000 || count(sent, 'joined') !== 1000) held = false
        console.log(`  trigger ${mode}, run ${run + 1}: ${rows} of 1000 stored`)
      }
    }
  } finally {
    await Promise.all(sites.map((site) => site.server.stop()))
    await harness.close()
  }
  console.log(
    "\nThe limits' cost: 1,000 distinct signups, concurrency 50, one server, each post its own client",
  )
  for (const mode of ['off', 'on'] as const) {
    const f = figures[mode]
    console.log(
      `  trigger ${mode.padEnd(3)}  posts/s ${median(f.rate).toFixed(0)} (runs: ${f.rate.map((r) => r.toFixed(0)).join(', ')})` +
        `  p50 ${fmt(median(f.p50))}  p95 ${fmt(median(f.p95))}  p99 ${fmt(median(f.p99))}`,
    )
  }
  return held
}

/** What the limits hold with two servers on one database, at the migration's defaults. */
async function twoServers(port: number): Promise<boolean> {
  const harness = await startSupabaseHarness()
  const sites = await startSites(harness, [port, port + 1])
  const lines: string[] = []
  let held = true
  const check = (ok: boolean, line: string) => {
    if (!ok) held = false
    lines.push(`  ${line}${ok ? '' : '  <- NOT AS EXPECTED'}`)
  }
  try {
    await send(sites, 10, 'warmup', madeUp(199), 5)
    const firstAt = performance.now()
    const under = await send(sites, 500, 'under', madeUp(101), 50)
    check(
      count(under.sent, 'joined') === 500 && (await stored(harness, 'under-%')) === 500,
      `burst under the ceiling: 500 sent across both, ${count(under.sent, 'joined')} welcomed, ${await stored(harness, 'under-%')} stored (${(under.sent.length / (under.wallMs / 1000)).toFixed(0)} posts/s)`,
    )
    const flood = await send(sites, 1500, 'flood', madeUp(102), 50)
    const seconds = (performance.now() - firstAt) / 1000
    const floodStored = await stored(harness, 'flood-%')
    const refused = flood.sent.filter((s) => s.outcome === 'rate_limited').map((s) => s.ms)
    check(
      seconds < 60 ? floodStored === 90 : floodStored >= 90,
      `flood of made-up clients: 1500 sent across both, ${count(flood.sent, 'joined')} welcomed, ` +
        `${floodStored} stored, ${refused.length} refused; ${500 + 10 + floodStored} in the table in all, ` +
        `over ${seconds.toFixed(1)} s (ceiling 600, 10 of it taken by the warm-up)`,
    )
    check(
      flood.sent.every((s) => s.status === 200),
      `flood answers: ${flood.sent.filter((s) => s.status !== 200).length} not 200; refused in p50 ${fmt(percentile(refused, 50))}, p99 ${fmt(percentile(refused, 99))}`,
    )

    const direct = await runPool(
      Array.from(
        { length: 100 },
        (_, i) => () =>
          fetch(`${harness.url}/rest/v1/waitlist`, {
            method: 'POST',
            headers: {
              apikey: harness.anonKey,
              authorization: `Bearer ${harness.anonKey}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ email: `direct-${i}@example.com`, source: 'hero_section' }),
          }).then((response) => response.status),
      ),
      20,
    )
    const directStored = await stored(harness, 'direct-%')
    check(
      (performance.now() - firstAt) / 1000 >= 60 || directStored === 0,
      `straight to the data service with the public key, within the same minute: 100 sent, ` +
        `${direct.results.filter((s) => s === 201).length} answered 201, ${direct.results.filter((s) => s === 429).length} answered 429, ${directStored} stored`,
    )

    // A new minute for the one visitor.
    await harness.db.exec('truncate waitlist_private.recent_signups')
    const visitor = await send(sites, 40, 'visitor', () => '203.0.113.9', 4)
    const visitorStored = await stored(harness, 'visitor-%')
    check(
      visitorStored === 10 && count(visitor.sent, 'rate_limited') === 30,
      `one visitor posting 40 times across both: ${count(visitor.sent, 'joined')} welcomed, ` +
        `${count(visitor.sent, 'rate_limited')} refused, ${visitorStored} stored (allowance 10)`,
    )
  } finally {
    await Promise.all(sites.map((site) => site.server.stop()))
    await harness.close()
  }
  console.log("\nTwo servers on one database, the migration's defaults (ceiling 600, allowance 10)")
  for (const line of lines) console.log(line)
  return held
}

export async function benchLimits(runs: number, port: number): Promise<boolean> {
  console.log(
    `Signup limits, on the Supabase stand-in; ${runs} run(s); sites from 127.0.0.1:${port}`,
  )
  const cost = await triggerCost(runs, port)
  const holds = await twoServers(port)
  return cost && holds
}
