import { Readable, Writable } from 'node:stream'
import type { Env } from '@/lib/env'
import { runWaitlistCli } from '@/lib/waitlist/operator/cli'

/** `npm run waitlist -- <command>` in this process; the command's words split at spaces. */
export async function cli(command: string, env: Env, stdin = '') {
  const sink = (add: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        add(String(chunk))
        done()
      },
    })
  let [stdout, stderr] = ['', '']
  const code = await runWaitlistCli(command.split(' '), {
    env,
    stdin: Readable.from([stdin]),
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
  })
  return { code, stdout, stderr, said: stderr.trimEnd().split('\n') }
}
