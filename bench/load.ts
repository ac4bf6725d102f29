/**
 * Load and race bench for the signup path: `npm run bench:load -- [--supabase] [--runs N]`.
 *
 * Starts the built site (`npm run build` first) on 127.0.0.1 with the
 * signup limits off (no per-visitor allowance asked for, the database's
 * ceiling at 0), on the embedded store in a temporary folder or, with
 * `--supabase`, on the local Supabase stand-in, and drives the request a
 * browser without JavaScript sends: the multipart form post with the hidden
 * fields the page renders. `--limits` measures the limits instead (see
 * bench/limits.ts). Not part of CI: it measures, the tests prove.
 */
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { badInputs } from '../tests/bad-input-corpus'
import {
  postSignup,
  readSignupForm,
  type Outcome,
  type PostResult,
  type SignupForm,
} from '../tests/support/form-post'
import { benchLimits } from './limits'
import { median, percentile, runPool } from './load-pool'
import { embeddedBenchStore, startSite, supabaseBenchStore } from './site'

const { values: args } = parseArgs({
  options: {
    supabase: { type: 'boolean', default: false },
    limits: { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    port: { type: 'string', default: '4150' },
  },
})
const runs = Math.min(10, Math.max(1, Number(args.runs) || 1))
const port = Number(args.port)

const DISTINCT = 1000
const DISTINCT_CONCURRENCY = 50
const SAME = 200
const MIX_VALID = 200
const MIX_CONCURRENCY = 50
const REQUEST_TIMEOUT_MS = 30_000
const WARM_UP = 20

type Tally = {
  latenciesMs: number[]
  wallMs: number
  requests: number
  serverErrors: number
  outcomes: Partial<Record<Outcome | 'network', number>>
  unexpected: number
}

async function post(
  form: SignupForm,
  fields: [string, string][],
  omit: string[] = [],
): Promise<PostResult | 'network'> {
  try {
    return await postSignup(form, { fields, omit, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
  } catch {
    return 'network'
  }
}

/** Runs the jobs and tallies what came back; `expected` says whether job i got the answer it should. */
async function scenario(
  jobs: (() => Promise<PostResult | 'network'>)[],
  concurrency: number,
  expected: (index: number, outcome: Outcome) => boolean,
): Promise<Tally> {
  const { results, latenciesMs, wallMs } = await runPool(jobs, concurrency)
  const tally: Tally = {
    latenciesMs,
    wallMs,
    requests: jobs.length,
    serverErrors: 0,
    outcomes: {},
    unexpected: 0,
  }
  results.forEach((result, index) => {
    const outcome = result === 'network' ? 'network' : result.outcome
    tally.outcomes[outcome] = (tally.outcomes[outcome] ?? 0) + 1
    if (result === 'network' || result.status >= 500) tally.serverErrors += 1
    if (result === 'network' || !expected(index, result.outcome)) tally.unexpected += 1
  })
  return tally
}

async function runOnce(form: SignupForm, tag: string) {
  const distinct = await scenario(
    Array.from(
      { length: DISTINCT },
      (_, i) => () => post(form, [['email', `bench-${tag}-${i}@example.com`]]),
    ),
    DISTINCT_CONCURRENCY,
    (_, outcome) => outcome === 'joined',
  )
  const same = await scenario(
    Array.from({ length: SAME }, () => () => post(form, [['email', `same-${tag}@example.com`]])),
    SAME,
    (_, outcome) => outcome === 'joined' || outcome === 'already_joined',
  )
  const mixJobs = [
    ...badInputs.map((input) => ({
      run: () => post(form, input.fields, input.noSource ? ['source'] : []),
      // A refused address says "check your address"; a refused source gets the generic notice.
      expect: input.blames === 'email' ? 'invalid' : 'error',
    })),
    ...Array.from({ length: MIX_VALID }, (_, i) => ({
      run: () => post(form, [['email', `mix-${tag}-${i}@example.com`]]),
      expect: 'joined',
    })),
  ].sort(() => Math.random() - 0.5)
  const mix = await scenario(
    mixJobs.map((job) => job.run),
    MIX_CONCURRENCY,
    (index, outcome) => mixJobs[index]?.expect === outcome,
  )
  return { distinct, same, mix }
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`

function report(name: string, tallies: Tally[], rows: string) {
  const rates = tallies.map((t) => t.requests / (t.wallMs / 1000))
  const p = (q: number) => median(tallies.map((t) => percentile(t.latenciesMs, q)))
  const sum = (pick: (t: Tally) => number) => tallies.reduce((total, t) => total + pick(t), 0)
  const outcomes = tallies.map((t) => JSON.stringify(t.outcomes)).join(' | ')
  console.log(`\n${name}`)
  console.log(
    `  posts/s ${median(rates).toFixed(0)} (runs: ${rates.map((r) => r.toFixed(0)).join(', ')})`,
  )
  console.log(`  latency p50 ${fmt(p(50))}  p95 ${fmt(p(95))}  p99 ${fmt(p(99))}`)
  console.log(
    `  5xx or no answer ${sum((t) => t.serverErrors)}, unexpected answers ${sum((t) => t.unexpected)}`,
  )
  console.log(`  answers ${outcomes}`)
  console.log(`  rows stored ${rows}`)
}

if (args.limits) {
  const held = await benchLimits(runs, port)
  console.log(held ? '\nEvery expectation held.' : '\nSOME EXPECTATIONS FAILED: see above.')
  process.exit(held ? 0 : 1)
}

const store = args.supabase ? await supabaseBenchStore() : await embeddedBenchStore()
console.log(
  `Store: ${store.name}; ${runs} run(s); site on 127.0.0.1:${port}; limits off: ${store.limitsOff}`,
)
const site = await startSite(port, store)
const tags = Array.from({ length: runs }, () => randomUUID().slice(0, 8))
const results: Awaited<ReturnType<typeof runOnce>>[] = []
let failureLines = 0
try {
  const form = await readSignupForm(`${site.url}/`)
  // Warm-up: the first signup opens the store and loads the action; it is not measured.
  for (let i = 0; i < WARM_UP; i += 1) await post(form, [['email', `warmup-${i}@example.com`]])
  for (const [index, tag] of tags.entries()) {
    results.push(await runOnce(form, tag))
    console.log(`run ${index + 1}/${runs} done`)
  }
} finally {
  failureLines = site.failureLines()
  await site.stop()
}

try {
  const patterns: Record<string, string> = { all: '%', warmup: 'warmup-%' }
  for (const tag of tags) {
    patterns[`distinct-${tag}`] = `bench-${tag}-%`
    patterns[`same-${tag}`] = `same-${tag}@%`
    patterns[`mix-${tag}`] = `mix-${tag}-%`
  }
  const counts = await store.count(patterns)
  const per = (prefix: string) => tags.map((tag) => counts[`${prefix}-${tag}`] ?? 0)
  const total = (values: number[]) => values.reduce((a, b) => a + b, 0)
  const known =
    (counts.warmup ?? 0) + total(per('distinct')) + total(per('same')) + total(per('mix'))
  const expectedAll = WARM_UP + runs * (DISTINCT + 1 + MIX_VALID)
  report(
    `${DISTINCT} distinct addresses, concurrency ${DISTINCT_CONCURRENCY}`,
    results.map((r) => r.distinct),
    `${per('distinct').join(', ')} (expected ${DISTINCT} per run)`,
  )
  report(
    `${SAME} concurrent posts of one address`,
    results.map((r) => r.same),
    `${per('same').join(', ')} (expected 1 per run)`,
  )
  report(
    `Mix: ${badInputs.length} bad inputs + ${MIX_VALID} good addresses, concurrency ${MIX_CONCURRENCY}`,
    results.map((r) => r.mix),
    `${per('mix').join(', ')} good (expected ${MIX_VALID} per run); from the corpus: ${(counts.all ?? 0) - known} (expected 0)`,
  )
  console.log(
    `\nRows in the table: ${counts.all} (expected ${expectedAll}: warm-up, distinct, one per same-address burst, good mix)`,
  )
  console.log(`Server log lines "signup failed": ${failureLines}`)
  const sameJoined = results.map((r) => r.same.outcomes.joined ?? 0)
  console.log(`Same-address bursts answered "joined": ${sameJoined.join(', ')} (expected 1 each)`)
  const tallies = results.flatMap((r) => [r.distinct, r.same, r.mix])
  const held =
    counts.all === expectedAll &&
    counts.all === known &&
    sameJoined.every((n) => n === 1) &&
    tallies.every((t) => t.serverErrors === 0 && t.unexpected === 0)
  console.log(held ? '\nEvery expectation held.' : '\nSOME EXPECTATIONS FAILED: see above.')
  if (!held) process.exitCode = 1
} finally {
  await store.close()
}
