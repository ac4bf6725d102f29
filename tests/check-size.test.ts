import { expect, it } from 'vitest'
import { stylesheetCopies } from '../scripts/check-size'

const css = `.a{content:"x"}${'.b{color:red}'.repeat(50)}`
const style = `<style data-precedence="next" data-href="/_next/static/chunks/a.css">${css}</style>`
/** The payload as Next writes it: the stylesheet's text inside a JSON string inside a script. */
const payload = `<script>self.__next_f.push([1,${JSON.stringify(JSON.stringify([css]))}])</script>`

it.each([
  ['the <style> and its copy in the payload', `<head>${style}</head><body>${payload}</body>`, 2],
  ['and each further copy', `<head>${style}</head><body>${payload}${payload}</body>`, 3],
  ['the <style> alone once', `<head>${style}</head>`, 1],
  ['a page without one as none', '<head><link rel="stylesheet" href="/a.css"></head>', 0],
])('stylesheetCopies counts %s', (_what, html, copies) => {
  expect(stylesheetCopies(html)).toBe(copies)
})
