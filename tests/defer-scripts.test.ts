import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { runInNewContext } from 'node:vm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  FALLBACK_MS,
  LOADER_ID,
  deferPageScripts,
  deferScripts,
  deferredScripts,
} from '../scripts/defer-scripts'

const chunk = (name: string) => `/_next/static/chunks/${name}.js`
const asyncScript = (name: string) => `<script src="${chunk(name)}" async=""></script>`
const preload = (name: string) =>
  `<link rel="preload" as="script" fetchPriority="low" href="${chunk(name)}"/>`
const polyfill = `<script src="${chunk('polyfills')}" noModule=""></script>`
const payload = '<script>(self.__next_f=self.__next_f||[]).push([0])</script>'
const page = `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><style>p{color:red}</style>${preload('main')}${asyncScript('webpack')}${asyncScript('framework')}<title>Hi</title></head><body><p>Hi</p><script id="_R_">self.TURBOPACK=[]</script>${asyncScript('main')}${payload}${polyfill}</body></html>`

/** The loader's code, as the page carries it. */
const loaderSource = (html: string) =>
  new RegExp(`<script id="${LOADER_ID}">([\\s\\S]*?)</script>`).exec(html)?.[1]

describe('deferScripts', () => {
  const deferred = deferScripts(page)

  it('takes out every async script and script preload, and lists them once, in order, in one loader', () => {
    expect(deferred).not.toMatch(/<script\b[^>]*\basync\b/)
    expect(deferred).not.toContain('rel="preload"')
    expect(deferred.match(new RegExp(`id="${LOADER_ID}"`, 'g'))).toHaveLength(1)
    expect(deferredScripts(deferred)).toEqual([chunk('webpack'), chunk('framework'), chunk('main')])
  })

  it('puts the loader where the first script was, in the head', () => {
    const head = deferred.slice(0, deferred.indexOf('</head>'))
    expect(head).toContain(`<script id="${LOADER_ID}">`)
    expect(head.indexOf(LOADER_ID)).toBeGreaterThan(head.indexOf('</style>'))
    expect(head.indexOf(LOADER_ID)).toBeLessThan(head.indexOf('<title>'))
  })

  it('leaves the page, its inline scripts and the nomodule polyfill as they were', () => {
    for (const part of ['<p>Hi</p>', '<style>p{color:red}</style>', payload, polyfill])
      expect(deferred).toContain(part)
    expect(deferred).toContain('<script id="_R_">self.TURBOPACK=[]</script>')
  })

  it('changes nothing the second time, nor in a page without async scripts', () => {
    expect(deferScripts(deferred)).toBe(deferred)
    const plain = '<html><head></head><body><p>Hi</p></body></html>'
    expect(deferScripts(plain)).toBe(plain)
    expect(deferredScripts(plain)).toEqual([])
  })

  it('writes no "<" inside the loader, so no source can end the element', () => {
    const odd = page.replace(chunk('main'), '/_next/static/chunks/a</script>b.js')
    expect(loaderSource(deferScripts(odd))).not.toContain('<')
  })
})

/** Runs the loader as a browser would, with frames and timers under the test's control. */
function runLoader(html: string, readyState: DocumentReadyState = 'loading') {
  const source = loaderSource(html)
  if (!source) throw new Error('no loader')
  const frames: (() => void)[] = []
  const timers: { fn: () => void; ms: number }[] = []
  const added: { src: string; async: boolean }[] = []
  const parsed: (() => void)[] = []
  const document = {
    readyState,
    addEventListener: (type: string, fn: () => void) => {
      if (type === 'DOMContentLoaded') parsed.push(fn)
    },
    createElement: () => ({ src: '', async: false }),
    head: { appendChild: (script: { src: string; async: boolean }) => added.push(script) },
  }
  runInNewContext(source, {
    document,
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
    setTimeout: (fn: () => void, ms = 0) => timers.push({ fn, ms }),
  })
  /** Fires DOMContentLoaded. */
  const parse = () => parsed.splice(0).forEach((fn) => fn())
  return { frames, timers, added, parse }
}

describe('the loader', () => {
  const deferred = deferScripts(page)

  it('asks for nothing until the page is parsed and framed, then for every script, async, in the task after', () => {
    const { frames, timers, added, parse } = runLoader(deferred)
    expect(frames).toHaveLength(0)
    parse()
    expect(added).toEqual([])
    expect(frames).toHaveLength(1)
    frames[0]!()
    expect(added).toEqual([])
    const afterFrame = timers.find((timer) => timer.ms === 0)!
    afterFrame.fn()
    expect(added).toEqual(deferredScripts(deferred).map((src) => ({ src, async: true })))
  })

  it('waits for the next frame at once when it runs after the page is parsed', () => {
    const { frames, added } = runLoader(deferred, 'interactive')
    expect(frames).toHaveLength(1)
    expect(added).toEqual([])
  })

  it(`asks after ${FALLBACK_MS} ms when no frame comes (a background tab), and only once`, () => {
    const { timers, frames, added, parse } = runLoader(deferred)
    parse()
    const fallback = timers.find((timer) => timer.ms === FALLBACK_MS)!
    fallback.fn()
    expect(added).toHaveLength(3)
    frames[0]!()
    for (const timer of timers) timer.fn()
    expect(added).toHaveLength(3)
  })
})

describe('deferPageScripts', () => {
  let dist: string
  const file = (name: string) => path.join(dist, name)

  beforeEach(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'defer-scripts-'))
    await mkdir(file('server/app'), { recursive: true })
    await mkdir(file('server/pages'), { recursive: true })
    await writeFile(file('server/app/index.html'), page)
    await writeFile(file('server/app/_not-found.html'), page)
    await writeFile(file('server/pages/500.html'), '<html><body>Error</body></html>')
  })

  afterEach(async () => {
    await rm(dist, { recursive: true, force: true })
  })

  it('rewrites every prerendered page that has async scripts, and only those', async () => {
    expect(await deferPageScripts(dist)).toEqual([
      'server/app/_not-found.html',
      'server/app/index.html',
    ])
    expect(await readFile(file('server/app/index.html'), 'utf8')).toBe(deferScripts(page))
    expect(await readFile(file('server/pages/500.html'), 'utf8')).toBe(
      '<html><body>Error</body></html>',
    )
  })

  it('changes nothing when run again on the same build', async () => {
    await deferPageScripts(dist)
    expect(await deferPageScripts(dist)).toEqual([])
  })
})
