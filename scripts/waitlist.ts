/** The operators' commands for the waitlist (`npm run waitlist -- help`). */
import { createRequire } from 'node:module'
import { EXIT, runWaitlistCli } from '@/lib/waitlist/operator/cli'

// The .env files `next dev` reads (`next start`'s with NODE_ENV=production), by Next's own loader.
const { loadEnvConfig } = createRequire(import.meta.url)('@next/env') as typeof import('@next/env')
loadEnvConfig(process.cwd(), process.env.NODE_ENV !== 'production', {
  info: () => {},
  error: console.error,
})

// A reader that closes the pipe early (`| head`) is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) =>
  process.exit(error.code === 'EPIPE' ? EXIT.done : EXIT.failed),
)

const code = await runWaitlistCli(process.argv.slice(2), {
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
})
// Ended, not left to the event loop: a file system that never answers (a folder under /proc, a
// dead mount) would hold it open after the command gave up on it.
process.stdout.write('', () => process.exit(code))
