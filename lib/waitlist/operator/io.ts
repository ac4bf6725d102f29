// What a command runs with: the process's environment and streams.
import type { Readable, Writable } from 'node:stream'
import type { Env } from '@/lib/env'
import { clean } from '@/lib/log'

export type Io = { env: Env; stdin: Readable; stdout: Writable; stderr: Writable }

/** One line on stderr for the operator, addresses masked: stdout holds only the data asked for. */
export function say(io: Io, line: string): void {
  io.stderr.write(clean(`waitlist: ${line}`) + '\n')
}
