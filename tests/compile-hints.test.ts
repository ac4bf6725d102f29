import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'
import { COMPILE_HINT, withCompileHints } from '../scripts/compile-hints'
import { startupScripts } from '../scripts/next-manifests'

const chunk = (name: string) => `static/chunks/${name}.js`

/** A build folder as Next 16 writes it, in miniature: its runtime, one page, a lazy chunk. */
async function miniatureBuild(): Promise<string> {
  const distDir = await mkdtemp(path.join(tmpdir(), 'compile-hints-'))
  await mkdir(path.join(distDir, 'static/chunks'), { recursive: true })
  await mkdir(path.join(distDir, 'server/app'), { recursive: true })
  for (const name of ['runtime', 'next-components', 'page', 'lazy'])
    await writeFile(path.join(distDir, chunk(name)), name)
  const rootMainFiles = [chunk('runtime')]
  await writeFile(path.join(distDir, 'build-manifest.json'), JSON.stringify({ rootMainFiles }))
  const holding = (name: string) => ({ chunks: [`/_next/${chunk(name)}`] })
  const manifest = {
    clientModules: {
      '[project]/node_modules/next/dist/esm/client/components/layout-router.js':
        holding('next-components'),
      '[project]/node_modules/next/dist/esm/client/link.js': holding('page'),
      '[project]/components/waitlist/waitlist-form.tsx': holding('page'),
    },
    entryJSFiles: {
      '[project]/app/opengraph-image--metadata': [chunk('next-components')],
      '[project]/app/page': [chunk('page')],
    },
  }
  await writeFile(
    path.join(distDir, 'server/app/page_client-reference-manifest.js'),
    `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};
globalThis.__RSC_MANIFEST["/page"] = ${JSON.stringify(manifest)};`,
  )
  return distDir
}

it("counts Next's runtime and chunks of Next's components alone as the framework's, a chunk mixing in the project's as its own", async () => {
  expect(Object.fromEntries(await startupScripts(await miniatureBuild()))).toEqual({
    '/page': {
      framework: [chunk('runtime'), chunk('next-components')],
      own: [chunk('page')],
    },
  })
})

it('fails the build, saying why, on subresource integrity or browser source maps; else hints the start-up scripts', async () => {
  const distDir = await miniatureBuild()
  const build = (config: Parameters<typeof withCompileHints>[0]) =>
    withCompileHints(config).compiler!.runAfterProductionCompile!({ distDir, projectDir: '.' })
  const read = (name: string) => readFile(path.join(distDir, chunk(name)), 'utf8')

  await expect(build({ experimental: { sri: { algorithm: 'sha256' } } })).rejects.toThrow(
    /breaks experimental.sri \(the browser would refuse every script\)/,
  )
  await expect(build({ productionBrowserSourceMaps: true })).rejects.toThrow(
    /breaks productionBrowserSourceMaps/,
  )
  await build({})
  await build({})
  for (const name of ['runtime', 'next-components', 'page'])
    expect(await read(name)).toBe(`${COMPILE_HINT}${name}`)
  expect(await read('lazy')).toBe('lazy')
})
