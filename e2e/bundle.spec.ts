import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { DEMO_ANON_KEY } from '../tests/harness/postgrest'
import { BUILD_KEYS, BUILD_KEYS_STAMP } from './build-keys'

// The Supabase key and its client never reach the browser: the build had keys of both kinds
// (e2e/build.ts), the servers DEMO_ANON_KEY; none may be in .next/static or in any page as served.
const KEYS = {
  'the legacy key given to the build': BUILD_KEYS.NEXT_PUBLIC_SUPABASE_ANON_KEY,
  'the publishable key given to the build': BUILD_KEYS.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY,
  'the key the server runs with': DEMO_ANON_KEY,
}

// Strings of supabase-js (its X-Client-Info header) and postgrest-js (its error's name) that
// minifying keeps; the test first finds them in the server's bundle, which does hold the client.
const CLIENT_MARKS = ['X-Client-Info', 'PostgrestError']
const KEY_NAMES = ['SUPABASE_ANON_KEY', 'SUPABASE_PUBLISHABLE_KEY']

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name))
}

function found(text: string, needles: readonly string[]): string[] {
  return needles.filter((needle) => text.includes(needle))
}

test('the Supabase keys and client never reach the browser', async ({ request }) => {
  const stamp = await readFile(BUILD_KEYS_STAMP, 'utf8').then(JSON.parse, () => undefined)
  const buildId = (await readFile('.next/BUILD_ID', 'utf8')).trim()
  expect(
    stamp?.buildId,
    'This build was made without the keys: build with `npm run test:e2e` (e2e/build.ts).',
  ).toBe(buildId)

  const serverCode = await Promise.all(
    (await filesUnder('.next/server'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFile(f, 'utf8')),
  )
  expect(found(serverCode.join('\n'), CLIENT_MARKS)).toEqual(CLIENT_MARKS)

  const forbidden = [...Object.values(KEYS), ...CLIENT_MARKS, ...KEY_NAMES]
  const leaks: string[] = []
  const staticFiles = await filesUnder('.next/static')
  for (const file of staticFiles) {
    const text = (await readFile(file)).toString('latin1')
    for (const needle of found(text, forbidden)) leaks.push(`${file}: ${needle}`)
  }

  const loaded = new Set<string>()
  for (const route of ['/', '/no-such-page']) {
    for (const headers of [{}, { RSC: '1' }] as Record<string, string>[]) {
      const body = await (await request.get(route, { headers })).text()
      for (const needle of found(body, forbidden))
        leaks.push(`${route} ${JSON.stringify(headers)}: ${needle}`)
      // Named in markup, in the payload, or in the inlined stylesheet's url(…).
      for (const [src] of body.matchAll(/\/_next\/static\/[^"'\s\\)]+/g)) loaded.add(src)
    }
  }
  expect(leaks).toEqual([])

  // What the pages name is among what was read, so the scan covers what a browser loads.
  expect(loaded.size).toBeGreaterThan(3)
  const scanned = new Set(staticFiles.map((f) => `/_next/${path.relative('.next', f)}`))
  expect([...loaded].filter((src) => !scanned.has(decodeURI(src)))).toEqual([])
})

// A path the server builds from its environment makes Turbopack trace the whole project into every
// function a host deploys: docs, tests and all. The server reads the schema and the fonts, no more.
test("the server's functions carry the project files they read, and no others", async () => {
  const traces = (await filesUnder('.next/server')).filter((file) => file.endsWith('.nft.json'))
  expect(traces.length).toBeGreaterThan(0)
  const carried = new Set<string>()
  for (const trace of traces) {
    const { files } = JSON.parse(await readFile(trace, 'utf8')) as { files: string[] }
    for (const file of files)
      carried.add(path.relative('.', path.resolve(path.dirname(trace), file)))
  }
  const project = [...carried].filter((file) => !/^(node_modules|\.next)\//.test(file))
  expect(
    project.filter((file) => !/^(app|components\/brand\/fonts|supabase)\//.test(file)),
  ).toEqual([])
})
