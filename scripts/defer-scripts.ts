/**
 * Runs after `next build` (`npm run build` does both). Next asks for its
 * chunks from the page's <head>, so the browser downloads and compiles them
 * while it lays the page out for the first time, and on a phone the two
 * compete: the first layout waits, and the page's first frame with it. The
 * page needs no script to be seen or used (both forms post without one), so
 * each prerendered page gets its chunks asked for after its first frame:
 * every `<script src async>` and script preload Next wrote is taken out, and
 * one inline script in their place adds the same scripts once the first frame
 * after the document is parsed is painted (or after a second, for a tab
 * opened in the background, which paints no frames). They were `async`
 * already, so the order they run in changes nothing; React and Next find them
 * in the <head> as they left them.
 *   tsx scripts/defer-scripts.ts [.next]
 * A page is processed once: a page with no such script left is not changed.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { rewritePrerenderedPages } from './prerendered-pages'

/** The id of the inline script that asks for a page's chunks after its first frame. */
export const LOADER_ID = '_deferred_scripts'

/** How long a page with no frame to paint (a background tab) waits before asking anyway. */
export const FALLBACK_MS = 1000

const asyncScript = /<script\b(?=[^>]*\basync\b)[^>]*\bsrc="([^"]+)"[^>]*><\/script>/g
const scriptPreload = /<link\b(?=[^>]*\brel="preload")(?=[^>]*\bas="script")[^>]*>/g
const loaderScript = new RegExp(`<script id="${LOADER_ID}">[^<]*\\((\\[[^\\]<]*\\])\\)</script>`)

/**
 * The loader: once the document is parsed, on the next animation frame it
 * queues a task, which runs once that frame is laid out and painted, and adds
 * the scripts then; `FALLBACK_MS` after it ran it adds them if no frame came.
 * Waiting for the parse matters: a browser may paint a first frame while the
 * body is still arriving, before the frame that shows the page. Plain ES5, as
 * it runs before any polyfill.
 */
function loader(sources: string[]): string {
  const list = JSON.stringify(sources).replace(/</g, '\\u003c')
  const body =
    'function(s){var d=document,done;function go(){if(done)return;done=1;' +
    "s.forEach(function(u){var e=d.createElement('script');e.src=u;e.async=true;d.head.appendChild(e)})}" +
    'function arm(){requestAnimationFrame(function(){setTimeout(go)})}' +
    "d.readyState=='loading'?d.addEventListener('DOMContentLoaded',arm):arm();" +
    `setTimeout(go,${FALLBACK_MS})}`
  return `<script id="${LOADER_ID}">(${body})(${list})</script>`
}

/**
 * The page with its async scripts asked for after its first frame, or the page
 * as it was if it has none. The loader takes the place of the first script.
 */
export function deferScripts(html: string): string {
  const sources = [...new Set([...html.matchAll(asyncScript)].map(([, src]) => src!))]
  if (sources.length === 0) return html
  let first = true
  return html
    .replace(asyncScript, () => {
      if (!first) return ''
      first = false
      return loader(sources)
    })
    .replace(scriptPreload, '')
}

/** The scripts a page's loader asks for, in its order; none if the page has no loader. */
export function deferredScripts(html: string): string[] {
  const list = loaderScript.exec(html)?.[1]
  return list ? (JSON.parse(list) as string[]) : []
}

/** Defers the scripts of every prerendered page in `distDir`; returns the pages it changed. */
export function deferPageScripts(distDir: string): Promise<string[]> {
  return rewritePrerenderedPages(distDir, deferScripts)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const distDir = path.resolve(process.argv[2] ?? '.next')
  const pages = await deferPageScripts(distDir)
  for (const page of pages) console.log(`Scripts after the first frame: ${page}`)
  if (pages.length === 0) console.log('Scripts: no page changed (none has async scripts left)')
}
