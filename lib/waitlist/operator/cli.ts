// `npm run waitlist`: reads the command line, says what it acts on, and turns failures into one
// line and an exit status.
import { once } from 'node:events'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import type { Readable, Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { randomBytes } from 'node:crypto'
import leven from 'leven'
import { SIGNING_SECRET_VAR, type Env } from '@/lib/env'
import { clean } from '@/lib/log'
import { chooseLists, connect, LISTS, UsageError, type Database, type ListKind } from './database'
import { LIST_FORMATS, ListFileError } from './list-files'
import { runCommand, type Values } from './commands'

const USAGE = `Usage: npm run waitlist -- <command> [--list supabase|embedded] [--project REF]

  count                                  how many signups there are
  export [--format csv|json] [--output FILE] [--with-erasures]
                                         the list, to stdout or to a new FILE (- for stdout),
                                         readable by you alone; --with-erasures adds the
                                         erasure marks and their key (JSON)
  stats [--days N] [--format table|json] totals, per form, per UTC day (default 14 days)
  remove ADDRESS... | -                  erases each address (- reads them from stdin, one a
                                         line); an import never adds it back
  import FILE|- [--format csv|json] [--restore ADDRESS]... [--with-erasures]
                                         adds a list, skipping addresses already on it and
                                         those erased, but for each --restore ADDRESS;
                                         --with-erasures takes the marks too, into a fresh project
  check                                  the site's configuration, and the database: every
                                         migration applied? the limits? signing?
  signing-secret [--set|--retire-previous [--force]]
                                         makes a secret for the site to sign its inserts with;
                                         --set has Supabase refuse inserts not signed with
                                         WAITLIST_SIGNING_SECRET, or with the secret it replaces
                                         until --retire-previous, which waits until that has
                                         signed none for 10 minutes (docs/supabase.md#signing)

With SUPABASE_DB_URL set the commands work on that database (Supabase's);
else on the embedded database in WAITLIST_DATA_DIR (.data/waitlist), through
the running server when there is one. --list supabase or --list embedded
names the store meant; remove, import, signing-secret --set and --retire-previous
refuse to guess when the site's configuration here writes to the other, and
act on another Supabase project than the site's only when --project names it.
They read the .env files next dev reads. Exit status: 0 done, 1 failed, 2 a mistake in the
command or its setup, 3 import rejected rows.
`

export const EXIT = { done: 0, failed: 1, usage: 2, rejected: 3 } as const

export type CliIo = { env: Env; stdin: Readable; stdout: Writable; stderr: Writable }

type Option = {
  type: 'string' | 'boolean'
  multiple?: boolean
  value?: string
  choices?: readonly string[]
}
const oneOf = (...choices: string[]): Option => ({ type: 'string', choices })
const COMMANDS: Record<string, Record<string, Option>> = {
  count: {},
  export: {
    format: oneOf(...LIST_FORMATS),
    output: { type: 'string', value: 'FILE' },
    'with-erasures': { type: 'boolean' },
  },
  stats: { days: { type: 'string', value: 'N' }, format: oneOf('table', 'json') },
  remove: {},
  import: {
    format: oneOf(...LIST_FORMATS),
    restore: { type: 'string', multiple: true, value: 'ADDRESS' },
    'with-erasures': { type: 'boolean' },
  },
  check: {},
  'signing-secret': {
    set: { type: 'boolean' },
    'retire-previous': { type: 'boolean' },
    force: { type: 'boolean' },
  },
}

const LIST_OPTIONS: Record<string, Option> = {
  list: oneOf(...LISTS),
  project: { type: 'string', value: 'REF' },
}

/** The name `typed` is a typo of, or the start of. */
function closest(typed: string, names: string[]): string | undefined {
  return (
    names.find((name) => leven(typed, name) <= 2) ??
    names.find((name) => typed.length >= 3 && name.startsWith(typed))
  )
}

type Parsed = { name: string; values: Values; positionals: string[] }

// Without `--`, npm keeps an option it knows for itself (saying so only in npm_config_<name>),
// or drops one without a trace and passes its value on as an argument.
const underNpm = (env: Env) => env.npm_lifecycle_event === 'waitlist'
const npmHint = (name: string, option = '<option>') =>
  `put -- after \`npm run waitlist\` so that npm leaves the options to the command: npm run waitlist -- ${name || '<command>'} --${option} …`

function npmTook(env: Env): string | undefined {
  if (!underNpm(env)) return undefined
  const names = Object.values(COMMANDS).flatMap((options) => Object.keys(options))
  return [...names, ...Object.keys(LIST_OPTIONS)].find(
    (name) => env[`npm_config_${name.replaceAll('-', '_')}`],
  )
}

function parse(argv: string[], env: Env): Parsed {
  const [name = '', ...rest] = argv
  const taken = npmTook(env)
  if (taken) throw new UsageError(`npm took --${taken} for itself: ${npmHint(name, taken)}`)
  const options: Record<string, Option> | undefined = COMMANDS[name] && {
    ...COMMANDS[name],
    ...LIST_OPTIONS,
  }
  if (!options) {
    const guess = closest(name, Object.keys(COMMANDS))
    throw new UsageError(
      `${name ? `there is no command "${name}"` : 'name a command'}${guess ? ` (did you mean ${guess}?)` : ''}: ${Object.keys(COMMANDS).join(', ')}, or help.`,
    )
  }
  const described = Object.entries(options).map(([option, { value, choices }]) =>
    `--${option} ${value ?? choices?.join('|') ?? ''}`.trim(),
  )
  // An option's value that starts with a dash (`--days -5`) is its value, as in `--days=-5`.
  const args: string[] = []
  for (let i = 0; i < rest.length; i += 1) {
    const [arg, next = ''] = [rest[i]!, rest[i + 1]]
    const takesValue = options[/^--([\w-]+)$/.exec(arg)?.[1] ?? '']?.type === 'string'
    args.push(takesValue && /^-[^-]/.test(next) ? `${arg}=${rest[++i]}` : arg)
  }
  try {
    return { name, ...parseArgs({ args, options, allowPositionals: true, strict: true }) } as Parsed
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    // Node names the option it stopped at: '--fromat', or '--format <value>' when its value is missing.
    const typed = /'(-[^' ]*)/.exec(message)?.[1] ?? ''
    const guess = closest(typed.replace(/^-+/, ''), Object.keys(options))
    const problem =
      code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
        ? `has no option ${typed}${guess ? ` (did you mean --${guess}?)` : ''}`
        : `was given ${typed} ${/missing|ambiguous/.test(message) ? 'without its value' : 'with a value it does not take'}`
    throw new UsageError(`${name} ${problem}. It takes: ${described.join(', ')}.`)
  }
}

function validate(name: string, values: Values): void {
  for (const [option, { choices }] of Object.entries({ ...COMMANDS[name], ...LIST_OPTIONS })) {
    const value = values[option] as string | undefined
    if (choices && value !== undefined && !choices.includes(value))
      throw new UsageError(`--${option} must be ${choices.join(' or ')}, not "${value}".`)
  }
  const days = values.days as string | undefined
  if (days !== undefined && !(/^\d{1,4}$/.test(days) && +days >= 1 && +days <= 3660))
    throw new UsageError(`--days must be a whole number from 1 to 3660, not "${days}".`)
  const project = values.project as string | undefined
  if (project !== undefined && !/^[a-z0-9]{1,40}$/i.test(project))
    throw new UsageError(
      `--project takes a Supabase project's ref, as in https://<ref>.supabase.co, not "${project}".`,
    )
  if (values['with-erasures'] && values.format === 'csv')
    throw new UsageError('--with-erasures writes and reads JSON: leave out --format csv.')
  if (values.set && values['retire-previous'])
    throw new UsageError('signing-secret takes --set or --retire-previous, not both.')
}

/** Resolves to the exit status. */
export async function runWaitlistCli(argv: string[], io: CliIo): Promise<number> {
  const say = (text: string) => io.stderr.write(clean(text) + '\n')
  if (!argv[0] || ['help', '--help', '-h'].includes(argv[0])) {
    io.stdout.write(USAGE)
    return argv[0] ? EXIT.done : EXIT.usage
  }
  let output: WriteStream | undefined
  let input: Readable | undefined
  let kept = false
  let db: Database | undefined
  try {
    const { name, values, positionals } = parse(argv, io.env)
    const [fewest, most] = name === 'import' ? [1, 1] : name === 'remove' ? [1, Infinity] : [0, 0]
    if (positionals.length < fewest || positionals.length > most) {
      const npm =
        underNpm(io.env) && positionals.length > most
          ? ` If it is an option's value, ${npmHint(name)}.`
          : ''
      throw new UsageError(
        (name === 'import'
          ? 'import takes one FILE, or - for standard input.'
          : name === 'remove'
            ? 'remove takes the ADDRESS to erase, or - to read them from standard input.'
            : `${name} takes no argument "${positionals[0]}".`) + npm,
      )
    }
    validate(name, values)
    if (name === 'signing-secret' && !values.set && !values['retire-previous']) {
      io.stdout.write(`${randomBytes(32).toString('base64url')}\n`)
      say(
        `waitlist: a new secret for ${SIGNING_SECRET_VAR}. A first one goes on the site, then to the database with \`signing-secret --set\`; one that replaces another goes to the database first, then on the site, then \`--retire-previous\` (docs/supabase.md#signing).`,
      )
      return EXIT.done
    }
    const lists = chooseLists(
      io.env,
      values.list as ListKind | undefined,
      values.project as string | undefined,
    )
    // What changes a list acts on the one meant, or on none.
    const changes = ['remove', 'import', 'signing-secret'].includes(name)
    if (changes && lists.conflict) {
      throw new UsageError(
        `${name} changed nothing: SUPABASE_DB_URL names ${lists.target.name}, and ${lists.conflict.site}. ${lists.conflict.settle}`,
      )
    }
    const broken =
      'problem' in lists.site
        ? `the site takes no signups, its configuration is broken: ${lists.site.problem}`
        : undefined
    if (name === 'check' && broken) {
      say(`waitlist: ${broken}`)
      return EXIT.failed
    }
    // Made before the list is read, so a name that cannot be used costs nothing; never over an earlier export.
    const file =
      typeof values.output === 'string' && values.output !== '-' ? values.output : undefined
    output = file ? await createOutput(file) : undefined
    input = name === 'import' ? await openInput(positionals[0]!, io) : undefined
    db = await connect(lists)
    say(`waitlist: ${name} on ${db.where}`)
    if (lists.conflict)
      say(`waitlist: note: ${lists.conflict.site}, not to this list. ${lists.conflict.settle}`)
    if (broken) say(`waitlist: note: ${broken}`)
    const status = await runCommand(
      name,
      { ...values, output: file },
      positionals,
      db,
      { ...io, stdout: output ?? io.stdout, input, site: lists.site },
      say,
    )
    if (output) await once(output.end(), 'finish')
    kept = true
    return status
  } catch (error) {
    const usage = error instanceof UsageError
    // Expected: a mistake, a file that is no list, the database's own refusal or one that cannot be used.
    if (!usage && !(error instanceof ListFileError) && !(error as { code?: unknown }).code)
      throw error
    say(`waitlist: ${(error as Error).message}`)
    return usage ? EXIT.usage : EXIT.failed
  } finally {
    if (input !== io.stdin) input?.destroy()
    await db?.close().catch(() => {})
    // An export cut short would pass for a whole backup: only a finished one is kept.
    if (output && !kept) await rm(String(output.destroy().path), { force: true }).catch(() => {})
  }
}

async function createOutput(file: string): Promise<WriteStream> {
  // The list is people's addresses: readable by its owner alone, whatever the umask.
  const stream = createWriteStream(file, { flags: 'wx', mode: 0o600 })
  // A write still under way when a failed export destroys the file fails too: already said.
  stream.on('error', () => {})
  try {
    return await once(stream, 'open').then(() => stream)
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    throw new UsageError(
      code === 'EEXIST'
        ? `${file} exists, and export never writes over a file: name a new one.`
        : `cannot make ${file}: ${message}`,
    )
  }
}

async function openInput(file: string, io: CliIo): Promise<Readable> {
  if (file === '-') return io.stdin
  const found = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      error.code === 'ENOENT'
        ? `there is no file ${file} to import.`
        : `cannot read ${file}: ${error.message}`,
    )
  })
  if (found.isDirectory())
    throw new UsageError(`${file} is a folder: import takes a file, or - for standard input.`)
  const stream = createReadStream(file)
  // Opened before the database is, so a file that cannot be read costs nothing.
  await once(stream, 'open').catch((error: Error) => {
    throw new UsageError(`cannot read ${file}: ${error.message}`)
  })
  return stream
}
