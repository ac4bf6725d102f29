/**
 * What the database's limits cost a launch (`npm run bench:db`): signed
 * inserts of fresh trusted visitors, each as the site sends it (one message
 * inserting as `anon` with the visitor's signed headers), through parallel
 * connections to a database `supabase db push` made on the PostgreSQL the
 * tests use, with the ceiling at 600 a minute and with none, in interleaved
 * rounds, each round on a fresh copy of the database.
 *   npm run bench:db -- [--inserts 6000] [--connections 16] [--rounds 3]
 * Prints each run's rate and latencies, then the medians and the ratio of
 * the rates. Without a ceiling every insert must be admitted; with it, the
 * ceiling's 600 and, over it, about as many fresh trusted visitors again
 * (more when a run crosses a minute), the rest refused over the ceiling.
 */
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { insertStatement } from '../lib/waitlist/embedded-store'
import { visitorHeaders } from '../lib/waitlist/visitor'
import { makeOwner, pushDatabase, superuser } from '../tests/support/postgres'

const { values: args } = parseArgs({
  options: {
    inserts: { type: 'string', default: '6000' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
  },
})
const INSERTS = Number(args.inserts)
const CONNECTIONS = Number(args.connections)
const ROUNDS = Number(args.rounds)
const CEILINGS = [600, null]
const SECRET = 'a-signing-secret-for-the-bench-of-forty-chars'

type Run = { ceiling: number | null; rate: number; p50: number; p99: number; admitted: number }

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** The site's insert `i`, signed as it is sent: each a visitor of its own whose address the site trusts. */
function signup(round: number, i: number): string {
  const entry = { email: `bench-${round}-${i}@example.com`, source: 'hero_section' } as const
  const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
  const signing = { perMinute: 10, hashSecret: SECRET, signingSecret: SECRET }
  return insertStatement(entry, visitorHeaders(entry, { address, trusted: true }, signing))
}

async function run(url: string, ceiling: number | null, round: number): Promise<Run> {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      return client
    }),
  )
  try {
    await clients[0]!.query(
      `update waitlist_private.signup_limits set signups_per_minute = ${ceiling};
       update waitlist_private.secrets set signing_secret = '${SECRET}'`,
    )
    const latencies: number[] = []
    const refused = new Map<string, number>()
    let next = 0
    const started = performance.now()
    await Promise.all(
      clients.map(async (client) => {
        for (let i = next++; i < INSERTS; i = next++) {
          const sent = performance.now()
          try {
            await client.query(signup(round, i))
          } catch (error) {
            const code = String((error as { code?: string }).code ?? (error as Error).message)
            refused.set(code, (refused.get(code) ?? 0) + 1)
          }
          latencies.push(performance.now() - sent)
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const admitted = INSERTS - (refused.get('PT429') ?? 0)
    refused.delete('PT429')
    if (refused.size > 0 || (ceiling === null && admitted < INSERTS))
      throw new Error(`inserts were refused: ${JSON.stringify(Object.fromEntries(refused))}`)
    latencies.sort((a, b) => a - b)
    return {
      ceiling,
      admitted,
      rate: INSERTS / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    }
  } finally {
    await Promise.all(clients.map((client) => client.end()))
  }
}

const describe = ({ ceiling, rate, p50, p99, admitted }: Run) =>
  `${ceiling ? `ceiling ${ceiling}/min` : 'no ceiling    '}  ${String(admitted).padStart(5)} admitted  ${rate.toFixed(0).padStart(5)} inserts/s  p50 ${p50.toFixed(1).padStart(5)} ms  p99 ${p99.toFixed(1).padStart(6)} ms`

const cluster = await makeOwner()
try {
  const template = await pushDatabase(cluster)
  console.log(
    `PostgreSQL ${await superuser('show server_version')}: ${INSERTS} signed inserts of fresh trusted visitors as anon, ${CONNECTIONS} connections, ${ROUNDS} rounds`,
  )
  const runs: Run[] = []
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const ceiling of round % 2 ? [...CEILINGS].reverse() : CEILINGS) {
      const copy = `${template.name}_run`
      await superuser(`create database ${copy} template ${template.name} owner ${cluster.owner}`)
      try {
        const result = await run(template.url.replace(template.name, copy), ceiling, round)
        runs.push(result)
        console.log(`round ${round + 1}  ${describe(result)}`)
      } finally {
        await superuser(`drop database ${copy} with (force)`)
      }
    }
  }
  const medians = CEILINGS.map((ceiling) => {
    const of = runs.filter((r) => r.ceiling === ceiling)
    return {
      ceiling,
      admitted: median(of.map((r) => r.admitted)),
      rate: median(of.map((r) => r.rate)),
      p50: median(of.map((r) => r.p50)),
      p99: median(of.map((r) => r.p99)),
    }
  })
  console.log('\nmedians')
  for (const m of medians) console.log(`         ${describe(m)}`)
  console.log(`\nwith the ceiling / without: ${(medians[0]!.rate / medians[1]!.rate).toFixed(2)}x`)
  await template.drop()
} finally {
  await cluster.drop()
}
