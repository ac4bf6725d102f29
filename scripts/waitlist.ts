/**
 * The operators' commands for the waitlist: `npm run waitlist -- count`,
 * `export`, `stats`, `remove` and `import` (`npm run waitlist -- help`).
 *
 * Run under the `react-server` condition (see package.json): the store
 * modules import `server-only`, which resolves to an empty module there and
 * throws anywhere else.
 */
import { existsSync } from 'node:fs'
import { runWaitlistCli } from '@/lib/waitlist/operator/cli'

// The same files `next dev` reads, so a laptop's configuration applies here
// too; a variable already in the environment wins.
for (const file of ['.env.local', '.env']) {
  if (existsSync(file)) process.loadEnvFile(file)
}

// A reader that closes the pipe early (`| head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

process.exitCode = await runWaitlistCli(process.argv.slice(2), {
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
})
