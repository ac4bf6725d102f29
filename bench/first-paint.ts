/**
 * What the first frame of a page waits for: Lighthouse's own unthrottled load
 * (the trace its simulated throttling models a phone from), served with
 * brotli as Vercel serves it, task by task on the page's main thread until
 * the first contentful paint.
 *   npm run bench:paint -- [--runs 5] [--page site|minimal|script-free|…] [--port 3400] [--no-build] [--tasks]
 * (the pages of bench/pages.ts).
 * For each run it prints when the HTML was parsed, when the first of Next's
 * scripts was evaluated, when the main thread committed the first frame and
 * how long its tiles took to rasterise, when the first contentful paint came,
 * the simulated LCP and the scripts it waits for, and each candidate for the
 * largest paint (time, size, element); with
 * --tasks every main-thread task before the last of them and what it did.
 */
import { parseArgs } from 'node:util'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { CHROMIUM_ARGS, findChromium } from '../tests/support/chromium'
import { ACCEPT_SELF_SIGNED } from './edge'
import { pageNames, servePages, type PageName } from './pages'
import { analyse, type TraceEvent } from './trace'
import { build } from './servers'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    page: { type: 'string', default: 'site' },
    port: { type: 'string', default: '3400' },
    'no-build': { type: 'boolean', default: false },
    tasks: { type: 'boolean', default: false },
  },
})
const page = args.page as PageName
if (!pageNames.includes(page)) throw new Error(`--page takes one of ${pageNames.join(', ')}`)
const port = Number(args.port)

if (!args['no-build']) build(page.startsWith('minimal') ? 'bench/minimal' : '.')
const served = await servePages([page], port)
const url = served.urls[page]
let chrome: chromeLauncher.LaunchedChrome | undefined
try {
  chrome = await chromeLauncher.launch({
    chromePath: findChromium() ?? '/usr/bin/chromium',
    chromeFlags: [...CHROMIUM_ARGS, '--headless=new', ACCEPT_SELF_SIGNED],
  })
  const runs = Number(args.runs)
  let paintedFirst = 0
  const lcps: number[] = []
  for (let run = 0; run <= runs; run++) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    })
    // The first load warms the server and the browser, as in npm run bench: not counted.
    if (run === 0 || !result) continue
    const trace = (result.artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace
    const { fcp, dcl, firstNextScript, kept, commit, rasterMs, lcpCandidates, tasks } = analyse(
      trace.traceEvents,
      url,
    )
    const first = !(firstNextScript < fcp)
    if (first) paintedFirst++
    const lcp = Math.round(result.lhr.audits['largest-contentful-paint']?.numericValue ?? 0)
    lcps.push(lcp)
    console.log(
      `run ${run}: parsed (DOMContentLoaded) ${dcl.toFixed(0)} ms, first of Next's scripts ` +
        `evaluated ${firstNextScript.toFixed(0)} ms, first frame committed ${commit.toFixed(0)} ms ` +
        `and rasterised in ${rasterMs.toFixed(0)} ms, FCP ${fcp.toFixed(0)} ms: ` +
        `${first ? 'painted first' : 'scripts first'}; simulated LCP ${lcp} ms, waiting for ` +
        `${kept.scripts} scripts (${kept.kb.toFixed(0)} KB) loaded before the paint, ` +
        `benchmarkIndex ${Math.round(result.lhr.environment.benchmarkIndex)}`,
    )
    const element = result.lhr.audits['largest-contentful-paint-element']?.details
    const snippet = JSON.stringify(element ?? {}).match(/"snippet":"((?:[^"\\]|\\.)*)"/)?.[1]
    for (const candidate of lcpCandidates) {
      console.log(
        `  largest paint so far at ${candidate.at.toFixed(1)} ms: ${candidate.type}, ` +
          `${candidate.size} px² (node ${candidate.nodeId})`,
      )
    }
    console.log(`  Lighthouse's LCP element: ${snippet ?? 'none'}`)
    if (args.tasks) {
      for (const task of tasks) {
        const work = [...task.work]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
          .join(', ')
        console.log(
          `  ${task.start.toFixed(1).padStart(7)} ms  ${task.dur.toFixed(1).padStart(6)} ms  ${work}`,
        )
      }
    }
  }
  lcps.sort((a, b) => a - b)
  console.log(
    `\n${page}: painted before Next's scripts ran in ${paintedFirst} of ${runs} runs; ` +
      `simulated LCP ${lcps.join(', ')} ms, median ${lcps[Math.ceil(lcps.length / 2) - 1]} ms`,
  )
} finally {
  chrome?.kill()
  served.stop()
}
