import { describe, expect, it } from 'vitest'
import { stylesheetCopies } from '../scripts/check-size'

const css = `.a{content:"x"}${'.b{color:red}'.repeat(50)}`
const style = `<style data-precedence="next" data-href="/_next/static/chunks/a.css">${css}</style>`
/** The payload as Next writes it: the stylesheet's text inside a JSON string inside a script. */
const payload = `<script>self.__next_f.push([1,${JSON.stringify(JSON.stringify([css]))}])</script>`

describe('stylesheetCopies', () => {
  it('counts the <style> and each copy of its text in the payload', () => {
    expect(stylesheetCopies(`<head>${style}</head><body>${payload}</body>`)).toBe(2)
    expect(stylesheetCopies(`<head>${style}</head><body>${payload}${payload}</body>`)).toBe(3)
  })

  it('counts the <style> alone once, and a page without one as none', () => {
    expect(stylesheetCopies(`<head>${style}</head>`)).toBe(1)
    expect(stylesheetCopies('<head><link rel="stylesheet" href="/a.css"></head>')).toBe(0)
  })
})
