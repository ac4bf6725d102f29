// Run after every install (package.json's postinstall): makes Next write an inlined stylesheet into
// the document once. With experimental.inlineCss, Next 16.4 puts the whole stylesheet in a <style>
// and twice more in the payload the browser hydrates from (the root layout's copy, and again as
// the global-error boundary's: vercel/next.js#95141, #98079, #98110), so / carried 29 KB of CSS
// three times. Patched, the payload names the stylesheet instead: the server render writes the
// <style> from the build's copy of it, and in the browser React adopts that element, which it
// finds by its href (a hoisted style's text is never compared). The approach of
// vercel/next.js#98397: when a release carries it, or changes this code, this script stops the
// install and says so, and should then be deleted.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const PATCHED_VERSION = '16.4.6'
const next = path.dirname(createRequire(import.meta.url).resolve('next/package.json'))
const dist = (file) => path.join(next, 'dist', file)

function fail(message) {
  console.error(`scripts/patch-next.mjs: ${message}`)
  process.exit(1)
}

const { version } = JSON.parse(readFileSync(path.join(next, 'package.json'), 'utf8'))
if (version !== PATCHED_VERSION) {
  fail(
    `written for next ${PATCHED_VERSION}, found ${version}. If this release writes an inlined ` +
      'stylesheet into the document once (vercel/next.js#98397), delete this script and its ' +
      'postinstall; if not, check that the replacements below still fit and update PATCHED_VERSION.',
  )
}

// The server render reads each inlined stylesheet's text here, by href: it runs in the process that
// rendered the payload.
const REGISTRY = 'globalThis[Symbol.for("next.inlinedStylesheets")]'

/** Replaces `from` with `to` once in a file; a file that already has `to` is left as it is. */
function replaceOnce(file, from, to) {
  const text = readFileSync(file, 'utf8')
  if (text.includes(to)) return
  const at = text.indexOf(from)
  if (at === -1 || text.indexOf(from, at + 1) !== -1) {
    fail(`${path.relative(next, file)} no longer has the code this patch replaces, once.`)
  }
  writeFileSync(file, text.slice(0, at) + to + text.slice(at + from.length))
}

// Where Next renders an entry's stylesheet (renderCssResource in app-render), in the production
// runtimes of Turbopack's builds, the site's: a client component that carries the href, not a
// <style> that carries the text. (A `next build --webpack` keeps Next's three copies.)
for (const runtime of ['app-page-turbo', 'app-page-turbo-experimental']) {
  replaceOnce(
    dist(`compiled/next-server/${runtime}.runtime.prod.js`),
    'a.push(n("style",{key:i,nonce:t.nonce,precedence:e,href:o},s.content))',
    `((${REGISTRY}??=new Map).set(o,s.content),a.push(n(t.componentMod.InlinedStylesheet,{key:i,nonce:t.nonce,precedence:e,href:o})))`,
  )
}

// The component, among the ones app-render takes from the page's module.
replaceOnce(
  dist('esm/server/app-render/entry-base.js'),
  "export { ClientPageRoot } from '../../client/components/client-page';",
  "export { ClientPageRoot } from '../../client/components/client-page';\n" +
    "export { InlinedStylesheet } from '../../client/components/inlined-stylesheet';",
)

// The component, as ES module (the server's bundles) and CommonJS (the browser's).
const render = `// Written by the project's scripts/patch-next.mjs. On the server, the stylesheet's text from the
// build; in the browser, none: React adopts the <style> the document has by its href.
function InlinedStylesheet({ href, precedence, nonce }) {
    const text = typeof window === 'undefined' ? ${REGISTRY}?.get(href) : undefined;
    return (0, _jsxruntime.jsx)("style", { href, precedence, nonce, children: text ?? '' });
}
`
writeIfChanged(
  dist('esm/client/components/inlined-stylesheet.js'),
  `'use client';\nimport * as _jsxruntime from "react/jsx-runtime";\n${render}export { InlinedStylesheet };\n`,
)
writeIfChanged(
  dist('client/components/inlined-stylesheet.js'),
  `'use client';\n"use strict";\nconst _jsxruntime = require("react/jsx-runtime");\n${render}exports.InlinedStylesheet = InlinedStylesheet;\n`,
)

function writeIfChanged(file, text) {
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text)
}
