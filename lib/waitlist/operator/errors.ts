// The failures the commands expect, each said in one line with its exit status; anything else is
// a bug, and keeps its stack trace.
import pg from 'pg'

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
