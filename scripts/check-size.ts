/**
 * Fails when the client JavaScript a page of the project's own loads outgrows
 * its budget, or the landing page's HTML outgrows one round trip, and says how
 * many copies of its stylesheet each page carries. Reads the prerendered HTML
 * of the last `next build`, so it counts exactly the scripts the page asks
 * for (modern browsers skip `nomodule`), and Next's manifests
 * (scripts/next-manifests.ts), which name the framework's among them:
 *   npm run size             (after `next build`)
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { startupScripts } from './next-manifests'

/**
 * Gzip bytes allowed each page for the scripts that are the project's: what
 * it loads, less Next's runtime and components (the budget in
 * docs/performance.md). The total, framework included, is printed, not
 * judged: a release of Next or React that grows its own weight shows there.
 */
const MAX_OWN_GZIP_BYTES = 12 * 1024
/** Each page: its route, its prerendered HTML, its name in Next's manifests. */
export const PAGES = [
  { route: '/', html: 'index.html', page: '/page' },
  { route: 'not-found', html: '_not-found.html', page: '/_not-found/page' },
] as const

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

/**
 * Each script a page loads, its gzip size and whether it is the framework's,
 * with the total and the page's own part: how this check counts a page's JavaScript.
 */
export async function pageScriptBytes(buildDir: string, { html, page }: (typeof PAGES)[number]) {
  const files = await pageScripts(buildDir, html)
  if (files.length === 0) throw new Error(`No scripts found in ${html}: is the build complete?`)
  const framework = new Set((await startupScripts(buildDir)).get(page)?.framework)
  if (framework.size === 0) throw new Error(`Next's manifests name no scripts for ${page}`)
  const scripts = await Promise.all(
    files.map(async (file) => ({
      file,
      gzip: await gzipBytes(buildDir, file),
      framework: framework.has(file),
    })),
  )
  const sum = (of: typeof scripts) => of.reduce((total, script) => total + script.gzip, 0)
  return { scripts, total: sum(scripts), own: sum(scripts.filter((script) => !script.framework)) }
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
  for (const page of PAGES) {
    const { scripts, total, own } = await pageScriptBytes(buildDir, page)
    const over = own > MAX_OWN_GZIP_BYTES
    failed ||= over
    const html = await readFile(path.join(buildDir, 'server/app', page.html), 'utf8')
    const copies = stylesheetCopies(html)
    console.log(
      `${over ? 'OVER' : 'ok  '} ${page.route}: its own ${kb(own)} gzip (budget ${kb(MAX_OWN_GZIP_BYTES)}), ` +
        `${kb(total)} with the framework's, in ${scripts.length} scripts; ` +
        `its stylesheet ${copies === 1 ? 'once' : `${copies} times`}`,
    )
    if (over || process.env.SIZE_VERBOSE) {
      for (const { file, gzip, framework } of scripts)
        console.log(`       ${kb(gzip).padStart(9)}  ${file}${framework ? ' (framework)' : ''}`)
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
