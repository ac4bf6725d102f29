/**
 * Lighthouse on the landing page and on a minimal Next.js page (bench/minimal: one heading, one
 * client form), each as built and with the compile hint added or taken off, and on the page's own
 * HTML with every script taken out (bench/pages.ts says which is which), each served as Vercel's
 * edge serves a deployment (bench/edge.ts: HTTPS, HTTP/2, brotli), interleaved so all see the same
 * machine, with both of Lighthouse's throttling methods:
 *   npm run bench -- [--runs 7] [--throttling simulate|devtools|both] [--cpu-slowdown 4]
 *                    [--pages site,site-unhinted,...] [--port 3300] [--no-build]
 * Prints the medians side by side with the budgets of docs/performance.md, the site held to them
 * against the minimal page built the same way (both hinted, and both without the hint), and
 * writes every run to bench/results/. It measures; it never fails on a number.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import * as chromeLauncher from 'chrome-launcher'
import { PAGES as SIZED, pageScriptBytes } from '../scripts/check-size'
import { CHROMIUM_ARGS, findChromium } from '../tests/support/chromium'
import { ACCEPT_SELF_SIGNED } from './edge'
import { measure, medians, type Metrics, type Run, type Throttling } from './lighthouse-runs'
import { PAGES, pageNames, servePages, type PageName } from './pages'
import { build } from './servers'
import { ms, printMainThread, table, type Row } from './table'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    throttling: { type: 'string', default: 'both' },
    'cpu-slowdown': { type: 'string', default: '4' },
    pages: { type: 'string', default: 'site,site-unhinted,minimal-hinted,minimal,script-free' },
    port: { type: 'string', default: '3300' },
    'no-build': { type: 'boolean', default: false },
  },
})
const runs = Number(args.runs)
const port = Number(args.port)
const cpuSlowdown = Number(args['cpu-slowdown'])
const pages = args.pages.split(',') as PageName[]
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number above 0')
if (!(cpuSlowdown >= 1)) throw new Error('--cpu-slowdown takes a number of 1 or more')
if (!pages.every((name) => pageNames.includes(name)))
  throw new Error(`--pages takes some of ${pageNames.join(', ')}`)
/** Above Lighthouse's 4x, the run stands for a low-end phone and is held to that phone's budgets. */
const lowEnd = cpuSlowdown > 4
const methods: Throttling[] =
  args.throttling === 'both' ? ['simulate', 'devtools'] : [args.throttling as Throttling]
if (!methods.every((method) => method === 'simulate' || method === 'devtools'))
  throw new Error('--throttling takes simulate, devtools or both')
/** Each pair compared: like for like (hinted with hinted, plain with plain), then against the floor. */
const ratios: [PageName, PageName][] = [
  ['site', 'minimal-hinted'],
  ['site-unhinted', 'minimal'],
  ['site', 'script-free'],
  ['site', 'site-unhinted'],
  ['site-all-hinted', 'site'],
]

if (!args['no-build']) for (const dir of ['.', 'bench/minimal']) build(dir)

const chromePath = findChromium() ?? '/usr/bin/chromium'
const chromeVersion = execFileSync(chromePath, ['--version'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
}).trim()
const results: Partial<Record<Throttling, Partial<Record<PageName, Run[]>>>> = Object.fromEntries(
  methods.map((method) => [method, Object.fromEntries(pages.map((name) => [name, []]))]),
)
for (const name of pages) console.log(`${name}: ${PAGES[name]}`)

const served = await servePages(pages, port)
let chrome: chromeLauncher.LaunchedChrome | undefined
try {
  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [...CHROMIUM_ARGS, '--headless=new', ACCEPT_SELF_SIGNED],
  })
  // One load of each page first, not recorded: a server's first answers and the browser's
  // first loads are slower than any visitor's, and would land in whichever run came first.
  for (const name of pages) await measure(served.urls[name], chrome.port, 'simulate', cpuSlowdown)
  for (let run = 0; run < runs; run++) {
    for (const method of methods) {
      // Rotate which page goes first, so none always follows the same one.
      const order = pages.map((_, i) => pages[(i + run) % pages.length]!)
      for (const name of order) {
        const metrics = await measure(served.urls[name], chrome.port, method, cpuSlowdown)
        results[method]![name]!.push(metrics)
        console.log(
          `run ${run + 1}/${runs} ${method.padEnd(8)} ${name.padEnd(15)} perf ${metrics.performance} ` +
            `FCP ${Math.round(metrics.fcpMs)} LCP ${Math.round(metrics.lcpMs)} TBT ${Math.round(metrics.tbtMs)} ms ` +
            `(benchmarkIndex ${Math.round(metrics.benchmarkIndex)})`,
        )
      }
    }
  }
} finally {
  chrome?.kill()
  served.stop()
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

const shared: Row[] = [
  ['FCP', ms, 'fcpMs'],
  ['Main-thread work', ms, 'mainThreadMs'],
  ['JS transfer (brotli)', kb, 'jsTransferBytes'],
  ['JS parsed', kb, 'jsResourceBytes'],
  ['Requests', String, 'requests'],
  ['benchmarkIndex', (v) => String(Math.round(v)), 'benchmarkIndex'],
]
const tables: Record<string, string[]> = {}
const medianOf = (byPage: Partial<Record<PageName, Run[]>>) =>
  Object.fromEntries(
    Object.entries(byPage).map(([name, each]) => [name, medians(each)]),
  ) as Partial<Record<PageName, Metrics>>
/** Held against the minimal page built the same way: both hinted, and both without the hint. */
const likeForLike: [PageName, PageName][] = [
  ['site', 'minimal-hinted'],
  ['site-unhinted', 'minimal'],
]
const own: [PageName][] = [['site']]
const floor: [PageName, PageName][] = [['site', 'script-free']]
const { simulate, devtools } = results
if (simulate) {
  const median = medianOf(simulate)
  tables.simulate = table(
    `Medians of ${runs} runs each, simulated throttling (Lighthouse's default) at ${cpuSlowdown}x CPU, ${chromeVersion}`,
    median,
    [
      lowEnd
        ? [
            'Performance',
            String,
            'performance',
            ['≥ minimal − 3', likeForLike, (s, o) => s >= o - 3],
          ]
        : ['Performance', String, 'performance', ['≥ minimal', likeForLike, (s, o) => s >= o]],
      ['Accessibility', String, 'accessibility', ['100', own, (s) => s === 100]],
      ['Best Practices', String, 'bestPractices', ['100', own, (s) => s === 100]],
      ['SEO', String, 'seo', ['100', own, (s) => s === 100]],
      lowEnd
        ? ['LCP', ms, 'lcpMs']
        : ['LCP', ms, 'lcpMs', ['≤ script-free × 1.10', floor, (s, o) => s <= o * 1.1]],
      lowEnd
        ? ['TBT', ms, 'tbtMs', ['≤ minimal × 1.25', likeForLike, (s, o) => s <= o * 1.25]]
        : ['TBT', ms, 'tbtMs', ['≤ minimal + 25 ms', likeForLike, (s, o) => s <= o + 25]],
      ['CLS', (v) => v.toFixed(3), 'cls', ['0', own, (s) => s < 0.0005]],
      ...shared,
    ],
    ratios,
  )
  for (const [name, each] of Object.entries(simulate)) {
    const lcps = each.map((run) => Math.round(run.lcpMs)).join(', ')
    console.log(`simulated LCP of each ${name} run: ${lcps} ms`)
  }
  tables.mainThread = printMainThread(
    simulate,
    median,
    ratios,
    lowEnd ? ['≤ script-free × 1.25', floor, (s, o) => s <= o * 1.25] : undefined,
  )
  // The phone is set by the minimal page as released.
  const { minimal } = median
  if (lowEnd && minimal && (minimal.tbtMs < 450 || minimal.tbtMs > 600)) {
    console.log(
      `\nThe minimal page's TBT is ${Math.round(minimal.tbtMs)} ms, outside the 450 to 600 ms ` +
        `of a low-end phone: run again with a ${minimal.tbtMs < 450 ? 'higher' : 'lower'} --cpu-slowdown.`,
    )
  }
}
if (devtools) {
  tables.devtools = table(
    `Medians of ${runs} runs each, applied throttling (devtools: the load itself at slow 4G and ${cpuSlowdown}x CPU)`,
    medianOf(devtools),
    [
      ['Performance', String, 'performance'],
      ['LCP', ms, 'lcpMs', ['≤ script-free × 1.05', floor, (s, o) => s <= o * 1.05]],
      ['TBT', ms, 'tbtMs'],
      ['CLS', (v) => v.toFixed(3), 'cls', ['0', own, (s) => s < 0.0005]],
      ...shared,
    ],
    ratios,
  )
}

// JavaScript as `npm run size` counts it: every script the prerendered page asks for, and the page's own part.
const js = {
  site: await pageScriptBytes('.next', SIZED[0]),
  minimal: await pageScriptBytes('bench/minimal/.next', SIZED[0]),
}
console.log(
  `\nJavaScript on / (gzip, as npm run size counts): site ${kb(js.site.total)}, its own ${kb(js.site.own)} ` +
    `(budget 12.0 KB: ${js.site.own <= 12 * 1024 ? 'held' : 'MISSED'}); minimal ${kb(js.minimal.total)}, its own ${kb(js.minimal.own)}`,
)

const machine = { cpus: cpus().length, node: process.version, chromium: chromeVersion, cpuSlowdown }
await mkdir('bench/results', { recursive: true })
const file = `bench/results/lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`
await writeFile(file, `${JSON.stringify({ machine, runs, js, tables, results }, null, 2)}\n`)
console.log(`\nEvery run: ${file}`)
