import { once } from 'node:events'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { access, rm } from 'node:fs/promises'
import type { Readable, Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { randomBytes } from 'node:crypto'
import leven from 'leven'
import { SIGNING_SECRET_VAR, type Env } from '@/lib/env'
import { clean } from '@/lib/log'
import { connect, SetupError, type Database } from './database'
import { LIST_FORMATS, ListFileError } from './list-files'
import { run } from './run'

const USAGE = `Usage: npm run waitlist -- <command>

  count                                  how many signups there are
  export [--format csv|json] [--output FILE]
                                         the list, to stdout or to a new FILE
  stats [--days N] [--format table|json] totals, per form, per UTC day (default 14 days)
  remove ADDRESS... | -                  erases each address (- reads them from stdin, one a
                                         line); an import never adds it back
  import FILE|- [--format csv|json] [--restore ADDRESS]...
                                         adds a list, skipping addresses already on it and
                                         those erased, but for each --restore ADDRESS
  check                                  every migration applied? the limits? signing?
  signing-secret [--set|--retire-previous]
                                         makes a secret for the site to sign its inserts with;
                                         --set has Supabase refuse inserts not signed with
                                         WAITLIST_SIGNING_SECRET, or with the secret it replaces
                                         until --retire-previous (docs/supabase.md#signing)

With SUPABASE_DB_URL set the commands work on that database (Supabase's);
else on the embedded database in WAITLIST_DATA_DIR (.data/waitlist), through
the running server when there is one. They read the .env files next dev reads.
Exit status: 0 done, 1 failed, 2 a mistake in the command or its setup,
3 import rejected rows.
`

export const EXIT = { done: 0, failed: 1, usage: 2, rejected: 3 } as const

export type CliIo = { env: Env; stdin: Readable; stdout: Writable; stderr: Writable }

type Option = { type: 'string' | 'boolean'; multiple?: boolean; value?: string }
const format = (...values: string[]): Option => ({ type: 'string', value: values.join('|') })
const COMMANDS: Record<string, Record<string, Option>> = {
  count: {},
  export: { format: format(...LIST_FORMATS), output: { type: 'string', value: 'FILE' } },
  stats: { days: { type: 'string', value: 'N' }, format: format('table', 'json') },
  remove: {},
  import: {
    format: format(...LIST_FORMATS),
    restore: { type: 'string', multiple: true, value: 'ADDRESS' },
  },
  check: {},
  'signing-secret': { set: { type: 'boolean' }, 'retire-previous': { type: 'boolean' } },
}

class UsageError extends Error {}

/** The closest of `names` to `typed`, when it is a typo away. */
function closest(typed: string, names: string[]): string | undefined {
  return names.find((name) => leven(typed, name) <= 2)
}

type Values = Record<string, string | string[] | boolean | undefined>
type Parsed = { name: string; values: Values; positionals: string[] }

function parse(argv: string[]): Parsed {
  const [name = '', ...args] = argv
  const options = COMMANDS[name]
  if (!options) {
    const guess = closest(name, Object.keys(COMMANDS))
    throw new UsageError(
      `${name ? `there is no command "${name}"` : 'name a command'}${guess ? ` (did you mean ${guess}?)` : ''}: ${Object.keys(COMMANDS).join(', ')}, or help.`,
    )
  }
  const described = Object.entries(options).map(
    ([option, { value }]) => `--${option}${value ? ` ${value}` : ''}`,
  )
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
        : `was given ${typed} ${message.includes('missing') ? 'without its value' : 'with a value it does not take'}`
    throw new UsageError(
      `${name} ${problem}. ` +
        (described.length ? `It takes: ${described.join(', ')}.` : 'It takes no options.'),
    )
  }
}

function validate(name: string, values: Values): void {
  const format = values.format as string | undefined
  const formats: readonly string[] = name === 'stats' ? ['table', 'json'] : LIST_FORMATS
  if (format !== undefined && !formats.includes(format))
    throw new UsageError(`--format must be ${formats.join(' or ')}, not "${format}".`)
  const days = values.days as string | undefined
  if (days !== undefined && !(/^\d{1,4}$/.test(days) && +days >= 1 && +days <= 3660))
    throw new UsageError(`--days must be a whole number from 1 to 3660, not "${days}".`)
}

/** Runs one command; resolves to the exit status. */
export async function runWaitlistCli(argv: string[], io: CliIo): Promise<number> {
  const say = (text: string) => io.stderr.write(clean(text) + '\n')
  if (!argv[0] || ['help', '--help', '-h'].includes(argv[0])) {
    io.stdout.write(USAGE)
    return argv[0] ? EXIT.done : EXIT.usage
  }
  let output: WriteStream | undefined
  let kept = false
  let db: Database | undefined
  try {
    const { name, values, positionals } = parse(argv)
    const [fewest, most] = name === 'import' ? [1, 1] : name === 'remove' ? [1, Infinity] : [0, 0]
    if (positionals.length < fewest || positionals.length > most) {
      throw new UsageError(
        name === 'import'
          ? 'import takes one FILE, or - for standard input.'
          : name === 'remove'
            ? 'remove takes the ADDRESS to erase, or - to read them from standard input.'
            : `${name} takes no argument "${positionals[0]}".`,
      )
    }
    validate(name, values)
    if (values.set && values['retire-previous'])
      throw new UsageError('signing-secret takes --set or --retire-previous, not both.')
    if (name === 'signing-secret' && !values.set && !values['retire-previous']) {
      io.stdout.write(`${randomBytes(32).toString('base64url')}\n`)
      say(
        `waitlist: a new secret for ${SIGNING_SECRET_VAR}. A first one goes on the site, then to the database with \`signing-secret --set\`; one that replaces another goes to the database first, then on the site, then \`--retire-previous\` (docs/supabase.md#signing).`,
      )
      return EXIT.done
    }
    // Made before the list is read, so a name that cannot be used costs nothing; never over an earlier export.
    output = typeof values.output === 'string' ? await createOutput(values.output) : undefined
    const input = name === 'import' ? await openInput(positionals[0]!, io) : undefined
    db = await connect(io.env)
    say(`waitlist: ${name} on ${db.where}`)
    const stdout = output ?? io.stdout
    const status = await run(name, values, positionals, db, { ...io, stdout, input }, say)
    if (output) await once(output.end(), 'finish')
    kept = true
    return status
  } catch (error) {
    const usage = error instanceof UsageError || error instanceof SetupError
    // Expected: a mistake, a file that is no list, the database's own refusal or a connection that failed.
    if (!usage && !(error instanceof ListFileError) && !(error as { code?: unknown }).code)
      throw error
    say(`waitlist: ${(error as Error).message}`)
    return usage ? EXIT.usage : EXIT.failed
  } finally {
    await db?.close().catch(() => {})
    // An export cut short would pass for a whole backup: only a finished one is kept.
    if (output && !kept) await rm(String(output.destroy().path), { force: true }).catch(() => {})
  }
}

async function createOutput(file: string): Promise<WriteStream> {
  const stream = createWriteStream(file, { flags: 'wx' })
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
  await access(file).catch(() => {
    throw new UsageError(`there is no file ${file} to import.`)
  })
  return createReadStream(file)
}
