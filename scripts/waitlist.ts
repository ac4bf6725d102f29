/**
 * The operators' commands for the waitlist: `npm run waitlist -- count`,
 * `export`, `stats`, `remove`, `import` and `check` (`npm run waitlist -- help`).
 *
 * Run under the `react-server` condition (see package.json): the store
 * modules import `server-only`, which resolves to an empty module there and
 * throws anywhere else.
 */
import { EXIT, runWaitlistCli } from '@/lib/waitlist/operator/cli'
import { loadEnvFiles } from '@/lib/waitlist/operator/env-files'

// So a laptop's .env.local applies here as it does to `next dev`.
loadEnvFiles(process.cwd())

// A reader that closes the pipe early (`| head`) is not an error; any other failure to write
// (a full disk behind `> file`) is said in one line.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.done)
  process.stderr.write(`waitlist: could not write to standard output: ${error.message}\n`)
  process.exit(EXIT.failed)
})

try {
  process.exitCode = await runWaitlistCli(process.argv.slice(2), {
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  })
} catch (error) {
  // Every failure the commands know of is answered in runWaitlistCli; this is a fault in them.
  process.stderr.write(`waitlist: failed unexpectedly, a fault in the command: ${String(error)}\n`)
  console.error(error)
  process.exitCode = EXIT.failed
}
