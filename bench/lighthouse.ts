/**
 * Lighthouse on the landing page and on a minimal Next.js page (bench/minimal:
 * one heading, one client form), interleaved so both see the same machine:
 *   npm run bench -- [--runs 5] [--port 3300] [--no-build]
 * Prints the medians side by side with the budgets of docs/performance.md and
 * writes every run to bench/results/. It measures; it never fails on a number.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import * as chromeLauncher from 'chrome-launcher'
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium'
import { measure, medians, type Metrics, type Run } from './lighthouse-runs'
import { build, start, type Server } from './servers'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    port: { type: 'string', default: '3300' },
    'no-build': { type: 'boolean', default: false },
  },
})
const runs = Number(args.runs)
const port = Number(args.port)
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number above 0')

const targets = [
  { name: 'site', dir: '.', port },
  { name: 'minimal', dir: 'bench/minimal', port: port + 1 },
] as const
type TargetName = (typeof targets)[number]['name']

if (!args['no-build']) for (const { dir } of targets) build(dir)

const servers: Server[] = []
const chromePath = findChromium() ?? '/usr/bin/chromium'
const chromeVersion = execFileSync(chromePath, ['--version'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
}).trim()
let chrome: chromeLauncher.LaunchedChrome | undefined
const results: Record<TargetName, Run[]> = { site: [], minimal: [] }

try {
  const urls = {} as Record<TargetName, string>
  for (const target of targets) {
    const server = await start(target.dir, target.port)
    servers.push(server)
    urls[target.name] = server.url
  }
  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [...CHROMIUM_ARGS, '--headless=new'],
  })
  for (let run = 0; run < runs; run++) {
    // Alternate which page goes first, so neither always follows the other.
    const order = run % 2 ? [...targets].reverse() : targets
    for (const { name } of order) {
      const metrics = await measure(urls[name], chrome.port)
      results[name].push(metrics)
      console.log(
        `run ${run + 1}/${runs} ${name.padEnd(7)} perf ${metrics.performance} LCP ${Math.round(metrics.lcpMs)} ms TBT ${Math.round(metrics.tbtMs)} ms`,
      )
      if (metrics.failing.length) console.log(`  below full marks: ${metrics.failing.join(', ')}`)
    }
  }
} finally {
  chrome?.kill()
  servers.forEach((server) => server.stop())
}

const site = medians(results.site)
const minimal = medians(results.minimal)
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const ms = (value: number) => `${Math.round(value)} ms`
const ratio = (a: number, b: number) => (b === 0 ? '–' : `${(a / b).toFixed(2)}×`)

const rows: [
  label: string,
  format: (v: number) => string,
  key: keyof Metrics,
  budget: string,
  held: boolean | null,
][] = [
  ['Performance', String, 'performance', '≥ 99', site.performance >= 99],
  ['Accessibility', String, 'accessibility', '100', site.accessibility === 100],
  ['Best Practices', String, 'bestPractices', '100', site.bestPractices === 100],
  ['SEO', String, 'seo', '100', site.seo === 100],
  ['FCP', ms, 'fcpMs', '', null],
  ['LCP', ms, 'lcpMs', '≤ minimal × 1.15', site.lcpMs <= minimal.lcpMs * 1.15],
  ['TBT', ms, 'tbtMs', '≤ minimal + 60 ms', site.tbtMs <= minimal.tbtMs + 60],
  ['CLS', (v) => v.toFixed(3), 'cls', '≤ 0.01', site.cls <= 0.01],
  [
    'JS transfer (gzip)',
    kb,
    'jsTransferBytes',
    '≤ minimal + 25 KB',
    site.jsTransferBytes <= minimal.jsTransferBytes + 25 * 1024,
  ],
  ['JS parsed', kb, 'jsResourceBytes', '', null],
  ['Requests', String, 'requests', '', null],
]

const table = [
  ['', 'site', 'minimal', 'site/minimal', 'budget', ''],
  ...rows.map(([label, format, key, budget, held]) => [
    label,
    format(site[key]),
    format(minimal[key]),
    ratio(site[key], minimal[key]),
    budget,
    held === null ? '' : held ? 'held' : 'MISSED',
  ]),
]
const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)))
console.log(
  `\nMedians of ${runs} Lighthouse runs each (mobile, simulated throttling), ${chromeVersion}`,
)
for (const row of table)
  console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '))

const machine = { cpus: cpus().length, node: process.version, chromium: chromeVersion }
await mkdir('bench/results', { recursive: true })
const file = `bench/results/lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`
await writeFile(
  file,
  `${JSON.stringify({ machine, runs, medians: { site, minimal }, results }, null, 2)}\n`,
)
console.log(`\nEvery run: ${file}`)
