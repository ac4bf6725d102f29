// The commands as commander reads them: their arguments, options and help, and what each asks to
// be run once its store is open (cli.ts opens it).
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { Command, InvalidArgumentError, Option } from 'commander'
import { SIGNING_SECRET_VAR } from '@/lib/env'
import { check } from './check'
import * as commands from './commands'
import type { Database } from './database'
import { say, UsageError, type Io } from './io'
import { STORE_KINDS, type SiteStore } from './stores'

/** What the command line asked for, run once the store is chosen and open. */
export type Task = {
  name: string
  /** It changes the list: only on a store it can tell is the site's. */
  changes?: boolean
  /** A file, or - for standard input, read whole before the database is opened. */
  input?: string
  /** The new file export writes, checked before the list is read. */
  output?: string
  run(db: Database, given: { input: string; site: SiteStore }): Promise<number>
}

const HELP_AFTER = `
The list: SUPABASE_DB_URL's database, else the embedded one in WAITLIST_DATA_DIR;
--project confirms the Supabase project a change goes to where nothing else
proves it the site's (docs/operating.md#which-list). Exit status: 0 done,
1 failed, 2 a mistake in the command or its setup, 3 import rejected rows.
`

function days(value: string): number {
  if (!/^\d{1,4}$/.test(value) || +value < 1 || +value > 3660)
    throw new InvalidArgumentError('It is a whole number from 1 to 3660.')
  return Number(value)
}

function projectRef(value: string): string {
  if (!/^[a-z0-9]{1,40}$/i.test(value))
    throw new InvalidArgumentError(
      "It is a Supabase project's ref, as in https://<ref>.supabase.co.",
    )
  return value
}

const collect = (value: string, earlier: string[] = []) => [...earlier, value]

export function waitlistProgram(io: Io, chosen: (task: Task) => void): Command {
  // npm runs the command in the project's folder: a path is read from where the operator typed it.
  const typed = (file: string) => path.resolve(io.env.INIT_CWD ?? process.cwd(), file)
  const program = new Command('npm run waitlist --')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // commander's own sentence, and its suggestion, in the commands' one line.
      outputError: (text, write) => write(`waitlist: ${text.trim().replace(/\s*\n\s*/g, ' ')}\n`),
    })
    .addOption(new Option('--list <store>', 'the store to act on').choices(STORE_KINDS))
    .addOption(
      new Option('--project <ref>', 'the Supabase project to act on').argParser(projectRef),
    )
    .addHelpText('after', HELP_AFTER)

  program
    .command('count')
    .description('how many signups there are')
    .action(() => chosen({ name: 'count', run: (db) => commands.count(db, io) }))

  program
    .command('export')
    .description('the list, to stdout or to a new file only you can read')
    .addOption(
      new Option('--format <format>', 'csv (the default) or json').choices(['csv', 'json']),
    )
    .option('--output <file>', 'a new file to write, or - for stdout')
    .option('--with-erasures', 'the erasure marks too, as one JSON backup')
    .action((options: { format?: 'csv' | 'json'; output?: string; withErasures?: boolean }) => {
      if (options.withErasures && options.format === 'csv')
        throw new UsageError('--with-erasures writes JSON: leave out --format csv.')
      const output = options.output && options.output !== '-' ? typed(options.output) : undefined
      chosen({
        name: 'export',
        output,
        run: (db) => commands.exportList(db, io, { ...options, output }),
      })
    })

  program
    .command('stats')
    .description('totals, per form, per UTC day')
    .option('--days <n>', 'the days to show (14)', days, 14)
    .addOption(
      new Option('--format <format>', 'table (the default) or json').choices(['table', 'json']),
    )
    .action((options: { days: number; format?: 'table' | 'json' }) =>
      chosen({ name: 'stats', run: (db) => commands.stats(db, io, options) }),
    )

  program
    .command('remove')
    .description('erases each address, - reads them from standard input')
    .argument('<addresses...>')
    .action((addresses: string[]) =>
      chosen({
        name: 'remove',
        changes: true,
        input: addresses.includes('-') ? '-' : undefined,
        run: (db, { input }) =>
          commands.remove(db, io, [...addresses.filter((a) => a !== '-'), ...input.split('\n')]),
      }),
    )

  program
    .command('import')
    .description('adds a list, skipping addresses on it or erased')
    .argument('<file>', 'the file, or - for standard input')
    .option('--restore <address>', 'adds back an address erased on request', collect, [])
    .option('--with-erasures', 'reads a backup written by export --with-erasures')
    .action((file: string, options: { restore: string[]; withErasures?: boolean }) =>
      chosen({
        name: 'import',
        changes: true,
        input: file === '-' ? file : typed(file),
        run: (db, { input }) => commands.importList(db, io, input, options),
      }),
    )

  program
    .command('check')
    .description("the site's configuration, and the database's")
    .action(() => chosen({ name: 'check', run: (db, { site }) => check(db, io, site) }))

  program
    .command('signing-secret')
    .description('a new secret for the site to sign with')
    .option('--set', `gives ${SIGNING_SECRET_VAR} to the Supabase database`)
    .option('--retire-previous', 'stops accepting the secret --set replaced')
    .option('--force', 'retires it even while it may still sign')
    .action((options: { set?: boolean; retirePrevious?: boolean; force?: boolean }) => {
      if (options.set && options.retirePrevious)
        throw new UsageError('signing-secret takes --set or --retire-previous, not both.')
      if (!options.set && !options.retirePrevious) return newSecret(io)
      chosen({
        name: 'signing-secret',
        changes: true,
        run: (db) =>
          options.set ? commands.setSecret(db, io) : commands.retireSecret(db, io, options.force),
      })
    })
  return program
}

function newSecret(io: Io): void {
  io.stdout.write(`${randomBytes(32).toString('base64url')}\n`)
  say(
    io,
    `a new secret for ${SIGNING_SECRET_VAR}. It goes to the database first, with \`signing-secret --set\`, then on the site; one that replaces another is retired after the site's redeploy with \`--retire-previous\` (docs/supabase.md#signing).`,
  )
}
