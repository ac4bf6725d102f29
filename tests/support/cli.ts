import { PassThrough, Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import type { Env } from '@/lib/env'
import { runWaitlistCli } from '@/lib/waitlist/operator/cli'

/** `npm run waitlist -- <command>` in this process; the command's words split at spaces. */
export async function cli(command: string, env: Env, stdin = '') {
  const [out, err] = [new PassThrough(), new PassThrough()]
  const read = Promise.all([text(out), text(err)])
  const code = await runWaitlistCli(command.split(' '), {
    env,
    stdin: Readable.from([stdin]),
    stdout: out,
    stderr: err,
  })
  out.end()
  err.end()
  const [stdout, stderr] = await read
  return { code, stdout, stderr, said: stderr.trimEnd().split('\n') }
}
