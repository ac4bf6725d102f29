/**
 * Run first by `npm run dev`, `npm start`, `npm test` and `npm run waitlist`: on a Node
 * older than .nvmrc's, what follows fails far from the cause (a .ts file
 * Node cannot load), so this says it in one line. Plain JavaScript, so that
 * any Node can read it.
 */
import { readFileSync } from 'node:fs'

const needed = Number(readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8').trim())
const running = process.versions.node
if (Number(running.split('.')[0]) < needed) {
  console.error(
    `This project needs Node ${needed} or newer (.nvmrc), and this is Node ${running}: run \`nvm use\` (or install Node ${needed}), then the command again.`,
  )
  process.exit(1)
}
