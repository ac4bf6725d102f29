// `npm run waitlist`: runs one command on the list it names, and turns each failure into one line
// and an exit status.
import { randomBytes } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { SIGNING_SECRET_VAR, type Env } from '@/lib/env'
import { clean } from '@/lib/log'
import { parse, USAGE } from './arguments'
import { runCommand } from './commands'
import { connect, type Database } from './database'
import { chooseLists, Failure, UsageError, type ListKind } from './lists'

export const EXIT = { done: 0, failed: 1, usage: 2, rejected: 3 } as const

export type CliIo = { env: Env; stdin: Readable; stdout: Writable; stderr: Writable }

export async function runWaitlistCli(argv: string[], io: CliIo): Promise<number> {
  const say = (text: string) => io.stderr.write(clean(text) + '\n')
  if (!argv[0] || ['help', '--help', '-h'].includes(argv[0])) {
    io.stdout.write(USAGE)
    return argv[0] ? EXIT.done : EXIT.usage
  }
  let db: Database | undefined
  try {
    const { name, values, positionals } = parse(argv, io.env)
    if (name === 'signing-secret' && !values.set && !values['retire-previous']) {
      io.stdout.write(`${randomBytes(32).toString('base64url')}\n`)
      say(
        `waitlist: a new secret for ${SIGNING_SECRET_VAR}. It goes to the database first, with \`signing-secret --set\`, then on the site; one that replaces another is retired after the site's redeploy with \`--retire-previous\` (docs/supabase.md#signing).`,
      )
      return EXIT.done
    }
    const lists = chooseLists(
      io.env,
      values.list as ListKind | undefined,
      values.project as string | undefined,
    )
    const changes = ['remove', 'import', 'signing-secret'].includes(name)
    if (changes && lists.conflict) {
      throw new UsageError(
        `${name} changed nothing: SUPABASE_DB_URL names ${lists.target.name}, and ${lists.conflict.site}. ${lists.conflict.settle}`,
      )
    }
    if (changes && lists.unknown) {
      throw new UsageError(
        `${name} changed nothing: it cannot tell that SUPABASE_DB_URL's ${lists.target.name} is the project the site writes to, as ${lists.unknown}. If it is, say so with --project <ref> (the project's ref, or the name of a database of your own).`,
      )
    }
    const broken =
      'problem' in lists.site
        ? `the site takes no signups, its configuration is broken: ${lists.site.problem}`
        : undefined
    if (name === 'check' && broken) throw new Failure(broken)
    // npm runs the command in the project's folder: a path is read from where the operator typed it.
    const typed = (file: string) => path.resolve(io.env.INIT_CWD ?? process.cwd(), file)
    const from = name === 'import' ? positionals[0] : positionals.includes('-') ? '-' : undefined
    const input = from && (await readInput(from === '-' ? from : typed(from), io))
    const output =
      typeof values.output === 'string' && values.output !== '-' ? typed(values.output) : undefined
    if (output) await checkOutput(output)
    db = await connect(lists)
    say(`waitlist: ${name} on ${db.where}${lists.sites ? ", the site's list" : ''}`)
    if (lists.conflict) say(`waitlist: note: ${lists.conflict.site}, not to this list.`)
    if (lists.unknown)
      say(`waitlist: note: this may not be the list the site writes to, as ${lists.unknown}.`)
    if (broken) say(`waitlist: note: ${broken}`)
    return await runCommand(name, { ...values, output }, positionals, db, {
      ...io,
      input,
      site: lists.site,
      say,
    })
  } catch (error) {
    const usage = error instanceof UsageError
    // Expected: a mistake, a failure said in one line, or the database's own refusal.
    if (!usage && !(error instanceof Failure) && !(error as { code?: unknown }).code) throw error
    say(`waitlist: ${(error as Error).message}`)
    return usage ? EXIT.usage : EXIT.failed
  } finally {
    await db?.close().catch(() => {})
  }
}

/**
 * A new file outside the repository, or in exports/, which git ignores: an export holds people's
 * addresses. Said before the list is read.
 */
async function checkOutput(file: string): Promise<void> {
  const found = await stat(file).catch(() => undefined)
  if (found?.isDirectory())
    throw new UsageError(`${file} is a folder: --output takes the path of a new file in it.`)
  if (found)
    throw new UsageError(`${file} exists, and export never writes over a file: name a new one.`)
  const inProject = path.relative(process.cwd(), file)
  const outside = inProject.startsWith('..') || path.isAbsolute(inProject)
  if (!outside && !inProject.startsWith(`exports${path.sep}`))
    throw new UsageError(
      `export does not write ${file}: a list of people's addresses inside the project, outside exports/, is one \`git add .\` from a commit. Write it under exports/ (git ignores it) or outside the project.`,
    )
}

/** The whole file, or standard input; read before the database is opened, so a file that cannot be read costs nothing. */
async function readInput(file: string, io: CliIo): Promise<string> {
  const read = file === '-' ? text(io.stdin) : readFile(file, 'utf8')
  const whole = await read.catch(({ code, message }: NodeJS.ErrnoException) => {
    throw new UsageError(
      code === 'ENOENT'
        ? `there is no file ${file} to import.`
        : code === 'EISDIR'
          ? `${file} is a folder: import takes a file, or - for standard input.`
          : `cannot read ${file}: ${message}`,
    )
  })
  return whole.replace(/^\uFEFF/, '')
}
