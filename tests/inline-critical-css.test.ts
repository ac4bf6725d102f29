import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { inlineCriticalCss } from '../scripts/inline-critical-css'

const stylesheet = '/_next/static/chunks/site.css'
const css =
  '.hero{color:#111}.spinner{animation:spin 1s linear infinite}@keyframes spin{to{rotate:1turn}}'
const link = `<link rel="stylesheet" href="${stylesheet}" data-precedence="next"/>`
const noscriptStyle = '<noscript><style>.hero{opacity:1}</style></noscript>'
const page = (body: string, head = link) =>
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>${head}<script src="/_next/static/chunks/app.js" async=""></script></head><body>${body}<script>self.__next_f.push([1,"<p class=\\"hero\\">"])</script></body></html>`

let dist: string
const file = (name: string) => path.join(dist, name)
const read = (name: string) => readFile(file(name), 'utf8')

beforeEach(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'critical-css-'))
  await mkdir(file('static/chunks'), { recursive: true })
  await mkdir(file('server/app'), { recursive: true })
  await mkdir(file('server/pages'), { recursive: true })
  await writeFile(file('BUILD_ID'), 'build-1')
  await writeFile(file('static/chunks/site.css'), css)
  await writeFile(
    file('server/app/index.html'),
    page('<main><p class="hero">Hi</p></main>', `${link}${noscriptStyle}`),
  )
  await writeFile(file('server/pages/500.html'), page('<h1>Error</h1>', ''))
})

afterEach(async () => {
  await rm(dist, { recursive: true, force: true })
})

describe('inlineCriticalCss', () => {
  it('inlines the rules the page uses and stops the stylesheet from blocking the first paint', async () => {
    const pages = await inlineCriticalCss(dist)
    expect(pages.map((p) => p.page)).toEqual(['server/app/index.html'])

    const html = await read('server/app/index.html')
    const inline = /<head>[\s\S]*?<style>([^<]*)<\/style>/.exec(html)?.[1]
    expect(inline).toContain('.hero{color:#111}')
    // Nothing on the page spins yet: that rule waits for the full stylesheet.
    expect(inline).not.toContain('spinner')
    expect(inline).not.toContain('@keyframes')

    const links = [...html.matchAll(/<link rel="stylesheet"[^>]*>/g)].map(([tag]) => tag)
    expect(links).toHaveLength(2)
    expect(links[0]).toContain(`href="${stylesheet}"`)
    expect(links[0]).toContain('data-precedence="next"')
    expect(links[0]).toContain('media="print"')
    expect(links[0]).toContain(`onload="this.media='all'"`)
    expect(html).toContain(`<noscript>${links[1]}</noscript>`)
    expect(links[1]).not.toContain('media=')
  })

  it('leaves the page otherwise as it was: its own styles, scripts, their payload and the html element', async () => {
    await inlineCriticalCss(dist)
    const html = await read('server/app/index.html')
    expect(html).toContain(noscriptStyle)
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('<script src="/_next/static/chunks/app.js" async></script>')
    expect(html).toContain('<script>self.__next_f.push([1,"<p class=\\"hero\\">"])</script>')
  })

  it('leaves pages without a stylesheet untouched', async () => {
    const before = await read('server/pages/500.html')
    await inlineCriticalCss(dist)
    expect(await read('server/pages/500.html')).toBe(before)
  })

  it('runs once per build: a second run changes nothing, a new build is processed again', async () => {
    await inlineCriticalCss(dist)
    const once = await read('server/app/index.html')
    expect(await inlineCriticalCss(dist)).toEqual([])
    expect(await read('server/app/index.html')).toBe(once)

    await writeFile(file('BUILD_ID'), 'build-2')
    await writeFile(file('server/app/index.html'), page('<p class="hero">Again</p>'))
    expect((await inlineCriticalCss(dist)).map((p) => p.page)).toEqual(['server/app/index.html'])
  })

  it('refuses a folder that holds no build', async () => {
    await rm(file('BUILD_ID'))
    await expect(inlineCriticalCss(dist)).rejects.toThrow(/No BUILD_ID/)
  })
})
