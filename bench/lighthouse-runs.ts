import lighthouse, { type Result } from 'lighthouse'
import { breakdown, groups, longTasks, type Breakdown, type LongTask } from './main-thread'

export type Metrics = Breakdown & {
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  fcpMs: number
  lcpMs: number
  tbtMs: number
  cls: number
  jsTransferBytes: number
  jsResourceBytes: number
  requests: number
  /** Main-thread time by Lighthouse's `mainthread-work-breakdown`, in total and by group. */
  mainThreadMs: number
  /** Lighthouse's measure of this machine's speed at the time of the run (higher is faster). */
  benchmarkIndex: number
}

export type Throttling = 'simulate' | 'devtools'

/** One run: its figures, what Lighthouse took as the largest paint, and the audits short of full marks. */
export type Run = Metrics & { lcpElement: string; failing: string[]; longTasks: LongTask[] }

type NetworkRequest = { resourceType?: string; transferSize?: number; resourceSize?: number }

const score = (lhr: Result, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
const numeric = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN

function lcpElement(lhr: Result): string {
  const details = lhr.audits['lcp-breakdown-insight']?.details
  const items = (details && 'items' in details ? details.items : []) as {
    type?: string
    nodeLabel?: string
    selector?: string
  }[]
  const node = items.find((item) => item.type === 'node')
  return node ? `${node.selector ?? ''}: ${node.nodeLabel ?? ''}` : ''
}

function failingAudits(lhr: Result): string[] {
  return Object.values(lhr.categories).flatMap((category) =>
    category.auditRefs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${category.id}: ${ref.id}`),
  )
}

/**
 * One Lighthouse run on a mobile device at slow 4G and a CPU `cpuSlowdown`
 * times slower than this machine (4, Lighthouse's default, stands for a
 * mid-range phone). `simulate` (Lighthouse's default) loads the page
 * unthrottled and models the phone from that trace; `devtools` throttles the
 * load itself, so each paint is observed, not modelled. JavaScript is counted
 * as loaded, so compressed (transfer) and as parsed (resource).
 */
export async function measure(
  url: string,
  port: number,
  throttling: Throttling,
  cpuSlowdown: number,
): Promise<Run> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    throttlingMethod: throttling,
    throttling: { cpuSlowdownMultiplier: cpuSlowdown },
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  })
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
  const { lhr } = result
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`)
  const details = lhr.audits['network-requests']?.details
  const requests = (details && 'items' in details ? details.items : []) as NetworkRequest[]
  const scripts = requests.filter((request) => request.resourceType === 'Script')
  const sum = (key: 'transferSize' | 'resourceSize') =>
    scripts.reduce((total, request) => total + (request[key] ?? 0), 0)
  return {
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    fcpMs: numeric(lhr, 'first-contentful-paint'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    jsTransferBytes: sum('transferSize'),
    jsResourceBytes: sum('resourceSize'),
    requests: requests.length,
    mainThreadMs: numeric(lhr, 'mainthread-work-breakdown'),
    ...breakdown(lhr),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    lcpElement: lcpElement(lhr),
    failing: failingAudits(lhr),
    longTasks: longTasks(lhr),
  }
}

const metricKeys = [
  'performance',
  'accessibility',
  'bestPractices',
  'seo',
  'fcpMs',
  'lcpMs',
  'tbtMs',
  'cls',
  'jsTransferBytes',
  'jsResourceBytes',
  'requests',
  'mainThreadMs',
  ...(Object.keys(groups) as (keyof typeof groups)[]),
  'document',
  'benchmarkIndex',
] as const satisfies (keyof Metrics)[]

export function medians(runs: Run[]): Metrics {
  return Object.fromEntries(
    metricKeys.map((key) => [key, median(runs.map((run) => run[key]))]),
  ) as Metrics
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? Number.NaN : sorted[Math.ceil(sorted.length / 2) - 1]!
}
