/**
 * Fails when the JavaScript a visitor's browser loads for a page outgrows its
 * budget, or the landing page's HTML outgrows one round trip, and says how many
 * copies of its stylesheet each page carries. Reads the prerendered HTML of the
 * last `next build`, so it checks exactly the scripts the page asks for (modern
 * browsers skip `nomodule`):
 *   npm run size             (after `next build`)
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/**
 * Gzip bytes allowed per page: the minimal Next.js page's own (bench/minimal)
 * plus 12 KB, the budget in docs/performance.md. `npm run bench` prints both
 * figures from fresh builds; when an upgrade of Next.js or React moves the
 * floor, move these with it, in a commit that says so.
 */
const budgets = [
  { route: '/', html: 'index.html', maxGzipBytes: 144 * 1024 },
  { route: 'not-found', html: '_not-found.html', maxGzipBytes: 143 * 1024 },
]

/**
 * `/` as a browser receives it, compressed on the fly with brotli at quality 5
 * (as bench/edge.ts serves it), must arrive within TCP's first congestion
 * window: 10 segments of 1,460 bytes, its headers included. At 14,924 bytes it
 * took a second round trip, 150 ms on slow 4G before the first paint could
 * start (docs/performance.md).
 */
export const HTML_BUDGET = { html: 'index.html', maxBrotliBytes: 14_400 }

export async function htmlBrotliBytes(buildDir: string, htmlFile: string): Promise<number> {
  const html = await readFile(path.join(buildDir, 'server/app', htmlFile))
  return brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length
}

/** Every script an HTML page asks a modern browser for, as written in it (modern browsers skip `nomodule`). */
export function scriptSources(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/g)]
    .map(([tag]) => tag)
    .filter((tag) => !/\bnomodule\b/i.test(tag))
    .flatMap((tag) => /\bsrc="([^"]+)"/.exec(tag)?.[1] ?? [])
}

/** The scripts a prerendered page asks a modern browser for, as paths under the build folder. */
export async function pageScripts(buildDir: string, htmlFile: string): Promise<string[]> {
  const html = await readFile(path.join(buildDir, 'server/app', htmlFile), 'utf8')
  return scriptSources(html).flatMap((src) => /^\/_next\/([^"?]+)/.exec(src)?.[1] ?? [])
}

async function gzipBytes(buildDir: string, file: string): Promise<number> {
  return gzipSync(await readFile(path.join(buildDir, file)), { level: 9 }).length
}

/** Each script of a page with its gzip size, and their total: how this check counts a page's JavaScript. */
export async function pageScriptBytes(buildDir: string, htmlFile: string) {
  const scripts = await pageScripts(buildDir, htmlFile)
  if (scripts.length === 0)
    throw new Error(`No scripts found in ${htmlFile}: is the build complete?`)
  const sizes = await Promise.all(scripts.map((script) => gzipBytes(buildDir, script)))
  return { scripts, sizes, total: sizes.reduce((sum, size) => sum + size, 0) }
}

/**
 * How many times a page carries its inlined stylesheet: the `<style>`, and any
 * copy of its text in the payload React hydrates from, found by the stylesheet's
 * longest stretch that JSON leaves as it is. 0 when the page inlines none.
 */
export function stylesheetCopies(html: string): number {
  const css = /<style[^>]*data-href="[^"]+\.css"[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ''
  const stretch = css.split(/["\\]/).reduce((a, b) => (b.length > a.length ? b : a), '')
  return stretch ? html.split(stretch).length - 1 : 0
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const buildDir = path.resolve(process.argv[2] ?? '.next')
  let failed = false
  for (const { route, html, maxGzipBytes } of budgets) {
    const { scripts, sizes, total } = await pageScriptBytes(buildDir, html)
    const over = total > maxGzipBytes
    failed ||= over
    const copies = stylesheetCopies(await readFile(path.join(buildDir, 'server/app', html), 'utf8'))
    console.log(
      `${over ? 'OVER' : 'ok  '} ${route}: ${kb(total)} gzip in ${scripts.length} scripts (budget ${kb(maxGzipBytes)}); ` +
        `its stylesheet ${copies === 1 ? 'once' : `${copies} times`}`,
    )
    if (over || process.env.SIZE_VERBOSE) {
      scripts.forEach((script, i) =>
        console.log(`       ${kb(sizes[i] ?? 0).padStart(9)}  ${script}`),
      )
    }
  }

  const html = await htmlBrotliBytes(buildDir, HTML_BUDGET.html)
  const htmlOver = html > HTML_BUDGET.maxBrotliBytes
  console.log(
    `${htmlOver ? 'OVER' : 'ok  '} / HTML: ${html} bytes at brotli 5 (budget ${HTML_BUDGET.maxBrotliBytes}, one round trip)`,
  )

  if (failed || htmlOver) {
    console.error('Size budget exceeded: find what grew above, or raise the budget with a reason.')
    process.exit(1)
  }
}
