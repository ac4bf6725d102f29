// What a command runs with and says, and the failures it expects, each one line with its exit
// status; anything else is a bug, and keeps its stack trace.
import type { Readable, Writable } from 'node:stream'
import pg from 'pg'
import type { Env } from '@/lib/env'
import { clean } from '@/lib/log'

export type Io = { env: Env; stdin: Readable; stdout: Writable; stderr: Writable }

/** One line on stderr for the operator, addresses masked: stdout holds only the data asked for. */
export function say(io: Io, line: string): void {
  io.stderr.write(clean(`waitlist: ${line}`) + '\n')
}

/** A label-value table's row; its values are lined up in one column. */
export type Row = [string, string | number]

/** `1 signup`, `2 signups`. */
export const countOf = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`

export function table(rows: Row[]): string {
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}\n`).join('')
}

export const EXIT = { done: 0, failed: 1, usage: 2, rejected: 3 } as const

/** A mistake in the command or its setup, found before anything changes: exit status 2. */
export class UsageError extends Error {}

/** The database could not be used, a file is no list, or check found something wrong: exit status 1. */
export class Failure extends Error {}

/** The exit status of a failure said in one line: a mistake, a Failure, the database's own refusal. */
export function expectedExit(error: unknown): number | undefined {
  if (error instanceof UsageError) return EXIT.usage
  if (error instanceof Failure || error instanceof pg.DatabaseError) return EXIT.failed
  return undefined
}
