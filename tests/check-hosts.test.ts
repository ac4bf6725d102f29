import { describe, expect, it } from 'vitest'
import { headRequests } from '../scripts/check-hosts'

const page = (head: string, body = '<main>Hello</main>') =>
  `<!DOCTYPE html><html lang="en"><head>${head}</head><body>${body}</body></html>`

describe('what check:hosts compares of a page', () => {
  it('lists every style, stylesheet, preload and script of the head, in order', () => {
    const head = [
      '<meta charSet="utf-8"/>',
      '<link rel="preload" href="/_next/static/media/geist.woff2" as="font" crossorigin="" type="font/woff2"/>',
      '<style data-precedence="next" data-href="/_next/static/chunks/a.css">.bg-ink{color:red}</style>',
      '<link rel="icon" href="/icon.svg"/>',
      '<script src="/_next/static/chunks/b.js" async=""></script>',
      '<script>self.x=1</script>',
      '<script src="/_next/static/chunks/c.js" noModule=""></script>',
    ].join('')
    const lines = headRequests(page(head))
    expect(lines).toHaveLength(5)
    expect(lines[0]).toBe('link rel=preload as=font href=/_next/static/media/geist.woff2')
    expect(lines[1]).toMatch(/^style href=\/_next\/static\/chunks\/a\.css text=[0-9a-f]{12}$/)
    expect(lines[2]).toBe('script src=/_next/static/chunks/b.js async')
    expect(lines[3]).toMatch(/^script inline text=[0-9a-f]{12}$/)
    expect(lines[4]).toBe('script src=/_next/static/chunks/c.js nomodule')
  })

  it('tells an inlined stylesheet from the same file linked, and one text from another', () => {
    const inlined = headRequests(page('<style data-href="/a.css">.a{}</style>'))
    const edited = headRequests(page('<style data-href="/a.css">.a{color:red}</style>'))
    const linked = headRequests(page('<link rel="stylesheet" href="/a.css"/>'))
    expect(edited).not.toEqual(inlined)
    expect(linked).toEqual(['link rel=stylesheet as= href=/a.css'])
  })

  it('tells scripts asked for at once from scripts asked for later', () => {
    const atOnce = headRequests(page('<script src="/b.js" async=""></script>'))
    const later = headRequests(page('<script>load("/b.js")</script>'))
    expect(later).not.toEqual(atOnce)
  })

  it('leaves the body alone', () => {
    expect(headRequests(page('', '<script src="/late.js"></script><style>.b{}</style>'))).toEqual(
      [],
    )
  })
})
