/**
 * The prerendered pages of a Next.js build, for the steps `npm run build`
 * runs after `next build` (inline-stylesheets.ts, defer-scripts.ts).
 */
import { glob, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** Rewrites a page's HTML; returning it unchanged leaves the file as it is. */
export type PageRewrite = (html: string, page: string) => string | Promise<string>

/**
 * Passes every prerendered page in `distDir` (`server/{app,pages}/**\/*.html`)
 * through `rewrite`, in path order, and writes back those it changed; returns
 * their paths under `distDir`.
 */
export async function rewritePrerenderedPages(
  distDir: string,
  rewrite: PageRewrite,
): Promise<string[]> {
  const pages = (
    await Array.fromAsync(glob('server/{app,pages}/**/*.html', { cwd: distDir }))
  ).sort()
  const changed: string[] = []
  for (const page of pages) {
    const file = path.join(distDir, page)
    const before = await readFile(file, 'utf8')
    const after = await rewrite(before, page)
    if (after === before) continue
    await writeFile(file, after)
    changed.push(page)
  }
  return changed
}
