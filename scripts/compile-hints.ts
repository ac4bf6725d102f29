/**
 * Marks every script of the build for eager compilation (V8's explicit compile hints, Chromium
 * 136 and later): Chromium then compiles all of a file's functions on a background thread as it
 * downloads, not on the main thread as each is first called. Other browsers read a comment.
 * `npm run build` runs it after `next build`, on Next's scripts and on the copies Vercel's build
 * adapter has made of them by then (in .next/output); a script already marked is left as it is.
 */
import { existsSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'
const SCRIPT_FOLDERS = ['.next/static/chunks', '.next/output/static/_next/static/chunks']

/** The scripts in `folder` (and below it) that do not start with the hint. */
export async function scriptsWithoutHint(folder: string): Promise<string[]> {
  const names = await readdir(folder, { recursive: true })
  const scripts = names
    .filter((name) => name.endsWith('.js'))
    .map((name) => path.join(folder, name))
  const starts = await Promise.all(scripts.map((file) => readFile(file, 'utf8')))
  return scripts.filter((_, i) => !starts[i]!.startsWith(COMPILE_HINT))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const folder of SCRIPT_FOLDERS.filter((folder) => existsSync(folder))) {
    const unmarked = await scriptsWithoutHint(folder)
    for (const file of unmarked)
      await writeFile(file, COMPILE_HINT + (await readFile(file, 'utf8')))
    console.log(`Compile hints added to ${unmarked.length} scripts in ${folder}.`)
  }
}
