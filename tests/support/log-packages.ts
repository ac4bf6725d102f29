// Loaded with `NODE_OPTIONS=--import <this file>`: writes `[package] <name>` to stderr the first
// time the process loads a file of a package, by `import` or `require`.
import { registerHooks } from 'node:module'

const seen = new Set<string>()

registerHooks({
  load(url, context, nextLoad) {
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]
    if (name && !seen.has(name)) {
      seen.add(name)
      process.stderr.write(`[package] ${name}\n`)
    }
    return nextLoad(url, context)
  },
})
