/**
 * V8's explicit compile hint on the scripts each page loads at start (Chromium 136 and later): each
 * is compiled whole on a background thread as it downloads, not on the main thread function by
 * function as each is first called. Other browsers read a comment. Added inside `next build` by
 * Next's `compiler.runAfterProductionCompile` hook, after the chunks are written and before any page
 * is generated or any host collects the build, so every host serves the same bytes. Scripts loaded
 * later (sonner's, at the first focus in a form) are left alone, as V8 asks the hint to be used
 * sparingly: it costs memory and compile time on the phone.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { NextConfig } from 'next'
import { startupScripts } from './next-manifests'

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'

/** The start-up scripts of every page of the build in `distDir`, as paths under it. */
export async function hintedScripts(distDir: string): Promise<string[]> {
  const pages = [...(await startupScripts(distDir)).values()]
  return [...new Set(pages.flatMap(({ framework, own }) => [...framework, ...own]))]
}

/** Heads each start-up script of the build in `distDir` with the hint, once. */
export async function addCompileHints(distDir: string): Promise<void> {
  for (const script of await hintedScripts(distDir)) {
    const file = path.join(distDir, script)
    const text = await readFile(file, 'utf8')
    if (!text.startsWith(COMPILE_HINT)) await writeFile(file, COMPILE_HINT + text)
  }
}

/**
 * `config`, its `next build` adding the hints. The build fails on the settings that read the scripts
 * before the hook changes them: subresource integrity hashes them while compiling (the browser would
 * refuse every hinted script), and browser source maps would map each line one line off.
 */
export function withCompileHints(config: NextConfig): NextConfig {
  return {
    ...config,
    compiler: {
      ...config.compiler,
      async runAfterProductionCompile({ distDir }) {
        const breaks = [
          config.experimental?.sri && 'experimental.sri (the browser would refuse every script)',
          config.productionBrowserSourceMaps &&
            'productionBrowserSourceMaps (every line would map one line off)',
        ].filter(Boolean)
        if (breaks.length)
          throw new Error(
            `The compile hints (scripts/compile-hints.ts) change the scripts after they are compiled, which breaks ${breaks.join(' and ')}: drop the setting or the hints.`,
          )
        await addCompileHints(distDir)
      },
    },
  }
}
