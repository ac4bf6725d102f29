/**
 * Runs after `next build` (`npm run build` does both). A stylesheet link
 * blocks the first paint until one more request has come back, which on a
 * phone is a whole mobile round trip. So each prerendered page gets its
 * stylesheets written whole into <style> elements in its <head>: the first
 * paint waits for nothing, and the page is styled once.
 *
 * Next's <link> to the same file stays, because React looks for it when it
 * hydrates and would insert it again if it were gone. It gets
 * `media="print"`: it no longer blocks the first paint and never applies on
 * screen, where the rules are already in force. (Applying it after load, as a
 * `media` swap would, costs a second style and layout pass over the whole page
 * for nothing.)
 *   tsx scripts/inline-stylesheets.ts [.next]
 * A page is processed once per build: the build's id is recorded, so running
 * it again does nothing until the next build.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { rewritePrerenderedPages } from './prerendered-pages'

export type InlinedPage = { page: string; gzipBefore: number; gzipAfter: number }

const stampFile = 'inline-stylesheets-build-id'
const gzip = (text: string) => gzipSync(text).length
const stylesheetLink =
  /<link\b(?=[^>]*\brel="stylesheet")(?=[^>]*\bhref="\/_next\/([^"]+\.css)")[^>]*>/g

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** `<style>` text may hold anything but its own end tag. */
const asStyleElement = (css: string) => `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`

/** The link, kept for React to find, made non-blocking and screen-inert. */
const printOnly = (link: string) =>
  link.replace(/\s+media="[^"]*"/, '').replace(/\s*\/?>$/, ' media="print"/>')

/** Inlines the stylesheets of every prerendered page in `distDir`; returns the pages it changed. */
export async function inlineStylesheets(distDir: string): Promise<InlinedPage[]> {
  const buildId = (await readIfPresent(path.join(distDir, 'BUILD_ID')))?.trim()
  if (!buildId) throw new Error(`No BUILD_ID in ${distDir}: run next build first`)
  if ((await readIfPresent(path.join(distDir, stampFile)))?.trim() === buildId) return []

  const sheets = new Map<string, string>()
  const sheet = async (file: string) => {
    let css = sheets.get(file)
    if (css === undefined) {
      // Stylesheets are linked as /_next/static/…, which lives in <distDir>/static/….
      css = await readFile(path.join(distDir, file), 'utf8')
      sheets.set(file, css)
    }
    return css
  }

  const pages: InlinedPage[] = []
  await rewritePrerenderedPages(distDir, async (before, page) => {
    const links = [...before.matchAll(stylesheetLink)]
    if (links.length === 0) return before
    let after = before
    for (const [link, href] of links) {
      const inlined = asStyleElement(await sheet(href!)) + printOnly(link)
      after = after.replace(link, () => inlined)
    }
    pages.push({ page, gzipBefore: gzip(before), gzipAfter: gzip(after) })
    return after
  })
  await writeFile(path.join(distDir, stampFile), `${buildId}\n`)
  return pages
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const distDir = path.resolve(process.argv[2] ?? '.next')
  const pages = await inlineStylesheets(distDir)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  for (const { page, gzipBefore, gzipAfter } of pages)
    console.log(`Stylesheet inlined: ${page} (${kb(gzipBefore)} → ${kb(gzipAfter)} gzip)`)
  if (pages.length === 0)
    console.log('Stylesheets: no page changed (none links one, or this build is done)')
}
