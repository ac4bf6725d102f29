/**
 * What Next's build manifests say each page loads at start, split into the framework's scripts and
 * the page's own. Their shapes are Next's, not a documented interface: they are read here alone and
 * checked as read, so a release that changes them fails the build and `npm run size` naming this
 * file; e2e/landing.spec.ts fails if they still read but no longer name what `/` loads.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { runInNewContext } from 'node:vm'

/** A page's start-up scripts, as paths under the build folder (`static/chunks/….js`). */
export type StartupScripts = {
  /** Next's runtime every page shares (`rootMainFiles`), and chunks of Next's own components alone. */
  framework: string[]
  /** The rest: the project's components and the libraries they import. */
  own: string[]
}

type ClientReferenceManifest = {
  clientModules?: Record<string, { chunks?: string[] }>
  entryJSFiles?: Record<string, unknown>
}

/** How a client module of the `next` package is named, by Turbopack (`[project]/node_modules/next/…`) and webpack (a path). */
const NEXT_MODULE = /[\\/]node_modules[\\/]next[\\/]/

function changed(what: string): never {
  throw new Error(`Next's build manifests changed: ${what} (read by scripts/next-manifests.ts).`)
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string')

/**
 * Every page of the build in `distDir` a visitor is sent to, by its name in the manifests (`/page`),
 * with its start-up scripts. Not `/_global-error/page`, shown only when the root layout itself fails.
 */
export async function startupScripts(distDir: string): Promise<Map<string, StartupScripts>> {
  const buildManifest = JSON.parse(
    await readFile(path.join(distDir, 'build-manifest.json'), 'utf8'),
  )
  const runtime: unknown = buildManifest.rootMainFiles
  if (!isStrings(runtime) || runtime.length === 0)
    changed('build-manifest.json has no rootMainFiles')

  const appDir = path.join(distDir, 'server/app')
  const files = (await readdir(appDir, { recursive: true })).filter((file) =>
    file.endsWith('page_client-reference-manifest.js'),
  )
  if (files.length === 0) changed('no page_client-reference-manifest.js in server/app')

  const pages = new Map<string, StartupScripts>()
  for (const file of files) {
    // Each file assigns its page's manifest to globalThis.__RSC_MANIFEST.
    const context: { __RSC_MANIFEST?: Record<string, ClientReferenceManifest> } = {}
    runInNewContext(await readFile(path.join(appDir, file), 'utf8'), context)
    for (const [page, manifest] of Object.entries(context.__RSC_MANIFEST ?? {})) {
      if (page === '/_global-error/page') continue
      const entries = Object.values(manifest.entryJSFiles ?? {})
      if (entries.length === 0 || !entries.every(isStrings)) changed(`${file} has no entryJSFiles`)
      // Client modules name their chunks as URLs (`/_next/static/chunks/….js`), entries as files.
      const modules = Object.entries(manifest.clientModules ?? {})
      const nextsAlone = (chunk: string) => {
        const holders = modules.filter(([, { chunks }]) =>
          chunks?.some((url) => url.endsWith(chunk)),
        )
        return holders.length > 0 && holders.every(([name]) => NEXT_MODULE.test(name))
      }
      const chunks = [...new Set(entries.flat())].filter((chunk) => !runtime.includes(chunk))
      pages.set(page, {
        framework: [...runtime, ...chunks.filter(nextsAlone)],
        own: chunks.filter((chunk) => !nextsAlone(chunk)),
      })
    }
  }
  return pages
}
