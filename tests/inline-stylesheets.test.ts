import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { inlineStylesheets } from '../scripts/inline-stylesheets'

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
  dist = await mkdtemp(path.join(tmpdir(), 'inline-stylesheets-'))
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

describe('inlineStylesheets', () => {
  it('puts the whole stylesheet in the head, rules for states the page is not in yet included', async () => {
    const pages = await inlineStylesheets(dist)
    expect(pages.map((p) => p.page)).toEqual(['server/app/index.html'])

    const html = await read('server/app/index.html')
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).toContain(`<style>${css}</style>`)
  })

  it('keeps the link for React to adopt, print-only so it neither blocks nor applies on screen', async () => {
    await inlineStylesheets(dist)
    const html = await read('server/app/index.html')
    const links = [...html.matchAll(/<link rel="stylesheet"[^>]*>/g)].map(([tag]) => tag)
    expect(links).toEqual([
      `<link rel="stylesheet" href="${stylesheet}" data-precedence="next" media="print"/>`,
    ])
    expect(html.indexOf(`<style>${css}</style>`)).toBeLessThan(html.indexOf(links[0]!))
    expect(html).not.toContain('onload=')
  })

  it('leaves the page otherwise as it was: its own styles, scripts, their payload and the html element', async () => {
    await inlineStylesheets(dist)
    const html = await read('server/app/index.html')
    expect(html).toContain(noscriptStyle)
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('<script src="/_next/static/chunks/app.js" async=""></script>')
    expect(html).toContain('<script>self.__next_f.push([1,"<p class=\\"hero\\">"])</script>')
  })

  it('cannot be closed early by what the stylesheet holds', async () => {
    await writeFile(
      file('static/chunks/site.css'),
      '.a::after{content:"</style><script>x</script>"}',
    )
    await inlineStylesheets(dist)
    const html = await read('server/app/index.html')
    expect(html).toContain('<style>.a::after{content:"<\\/style><script>x</script>"}</style>')
  })

  it('leaves pages without a stylesheet untouched', async () => {
    const before = await read('server/pages/500.html')
    await inlineStylesheets(dist)
    expect(await read('server/pages/500.html')).toBe(before)
  })

  it('runs once per build: a second run changes nothing, a new build is processed again', async () => {
    await inlineStylesheets(dist)
    const once = await read('server/app/index.html')
    expect(await inlineStylesheets(dist)).toEqual([])
    expect(await read('server/app/index.html')).toBe(once)

    await writeFile(file('BUILD_ID'), 'build-2')
    await writeFile(file('server/app/index.html'), page('<p class="hero">Again</p>'))
    expect((await inlineStylesheets(dist)).map((p) => p.page)).toEqual(['server/app/index.html'])
  })

  it('refuses a folder that holds no build', async () => {
    await rm(file('BUILD_ID'))
    await expect(inlineStylesheets(dist)).rejects.toThrow(/No BUILD_ID/)
  })
})
