/**
 * Says in one line, before anything else runs, that this Node.js is older than
 * package.json's `engines` allows (npm checks `engines` only on install, and
 * then only with `engine-strict`, which .npmrc sets). Plain JavaScript with no
 * dependency, so that any Node old enough to need the message can print it.
 *
 *   node scripts/check-node.mjs [package.json]
 */
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'

const manifest = process.argv[2] || fileURLToPath(new URL('../package.json', import.meta.url))
const range = JSON.parse(fs.readFileSync(manifest, 'utf8')).engines.node
// `engines.node` is written as ">=MAJOR[.MINOR[.PATCH]]": that is all this reads.
const wanted = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim())
if (!wanted) {
  console.error(`scripts/check-node.mjs reads an engines.node of the form >=X.Y.Z, not "${range}".`)
  process.exit(1)
}
const minimum = wanted.slice(1).map((part) => Number(part || 0))
const current = process.versions.node.split('.').map(Number)
const older = minimum.some((part, i) => {
  const before = minimum.slice(0, i).every((p, j) => p === current[j])
  return before && current[i] < part
})
if (older) {
  console.error(
    `This project needs Node.js ${range}, and this is Node.js ${process.version}: ` +
      `run \`nvm use\` (see .nvmrc) or install Node.js ${minimum[0]} or newer.`,
  )
  process.exit(1)
}
