// The suite's shared `next start` (playwright.config.ts), output passed through: failures tests
// cause on purpose, stack traces included, are marked line by line, not to read as the suite's.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { NEXT_BIN } from '../tests/support/next-server'

const ON_PURPOSE: [line: RegExp, cause: string][] = [
  // The stand-in (tests/harness/serve.ts) answers an address starting fail-502 so.
  [
    /signup failed .*Supabase refused the insert \(HTTP 502, code none\)/,
    "the stand-in's failure for a fail-502 address",
  ],
  // signup-failures.spec.ts posts with an action id a redeploy would have replaced: 40 f's.
  [/Failed to find Server Action "[0-9a-f]{2}f{40}"/, 'a post from an older deployment'],
]
/** What Next writes under an error: its stack and its link. */
const TRAILER = /^\s+at |^Read more: /

const server = spawn(process.execPath, [NEXT_BIN, 'start', ...process.argv.slice(2)], {
  stdio: ['ignore', 'inherit', 'pipe'],
})
let marked = false
createInterface({ input: server.stderr! }).on('line', (line) => {
  if (marked && TRAILER.test(line)) return
  const cause = ON_PURPOSE.find(([pattern]) => pattern.test(line))?.[1]
  marked = cause !== undefined
  process.stderr.write(cause ? `caused on purpose by a test (${cause}): ${line}\n` : `${line}\n`)
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
