/**
 * Runs after `next build` (`npm run build` does both). A stylesheet link blocks
 * the first paint until one more request has come back, which on a phone is a
 * whole mobile round trip. For each prerendered page this puts the rules that
 * match its HTML in a <style> in its <head>, and keeps the <link> to the full
 * stylesheet with `media="print"` until it has loaded, so it no longer blocks
 * (with a <noscript> copy for browsers without JavaScript). React adopts that
 * <link> when it hydrates, so the stylesheet is neither fetched twice nor
 * inserted again:
 *   tsx scripts/inline-critical-css.ts [.next]
 * A page is processed once per build: the build's id is recorded, so running
 * it again does nothing until the next build.
 */
import { glob, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import Beasties from 'beasties'

export type InlinedPage = { page: string; gzipBefore: number; gzipAfter: number }

const stampFile = 'critical-css-build-id'
const gzip = (text: string) => gzipSync(text).length

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** Inlines the critical CSS of every prerendered page in `distDir`; returns the pages it changed. */
export async function inlineCriticalCss(distDir: string): Promise<InlinedPage[]> {
  const buildId = (await readIfPresent(path.join(distDir, 'BUILD_ID')))?.trim()
  if (!buildId) throw new Error(`No BUILD_ID in ${distDir}: run next build first`)
  if ((await readIfPresent(path.join(distDir, stampFile)))?.trim() === buildId) return []

  const beasties = new Beasties({
    // Stylesheets are linked as /_next/static/…, which lives in <distDir>/static/….
    path: distDir,
    publicPath: '/_next/',
    preload: 'media',
    // Leave the page's own <style> elements alone: one of them sits in <noscript> on purpose.
    reduceInlineStyles: false,
    mergeStylesheets: false,
    logLevel: 'warn',
  })
  const pages: InlinedPage[] = []
  for await (const page of glob('server/{app,pages}/**/*.html', { cwd: distDir })) {
    const file = path.join(distDir, page)
    const before = await readFile(file, 'utf8')
    if (!before.includes('rel="stylesheet"')) continue
    // Beasties marks the element it worked in; the page has no use for the mark.
    const after = (await beasties.process(before)).replace(
      /(<html\b[^>]*?) data-beasties-container/,
      '$1',
    )
    await writeFile(file, after)
    pages.push({ page, gzipBefore: gzip(before), gzipAfter: gzip(after) })
  }
  await writeFile(path.join(distDir, stampFile), `${buildId}\n`)
  return pages
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const distDir = path.resolve(process.argv[2] ?? '.next')
  const pages = await inlineCriticalCss(distDir)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  for (const { page, gzipBefore, gzipAfter } of pages)
    console.log(`Critical CSS inlined: ${page} (${kb(gzipBefore)} → ${kb(gzipAfter)} gzip)`)
  if (pages.length === 0)
    console.log('Critical CSS: no page changed (none links a stylesheet, or this build is done)')
}
