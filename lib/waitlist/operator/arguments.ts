// The command line: what each command takes, and every mistake in it said in one line.
import { parseArgs } from 'node:util'
import leven from 'leven'
import type { Env } from '@/lib/env'
import { LISTS, UsageError } from './lists'

export type Values = Record<string, string | string[] | boolean | undefined>

export const USAGE = `Usage: npm run waitlist -- <command> [--list supabase|embedded] [--project REF]

  count                                   how many signups there are
  export [--format csv|json] [--output FILE] [--with-erasures]
                                          the list, to stdout or to a new FILE only you can
                                          read; --with-erasures adds the erasure marks (JSON)
  stats [--days N] [--format table|json]  totals, per form, per UTC day (default 14 days)
  remove ADDRESS... | -                   erases each address (- reads them from stdin)
  import FILE|- [--restore ADDRESS]... [--with-erasures]
                                          adds a list, skipping addresses already on it, and
                                          those erased but for each --restore ADDRESS
  check                                   the site's configuration, and the database's
  signing-secret [--set|--retire-previous [--force]]
                                          a secret for the site to sign with; --set gives it
                                          to Supabase (docs/supabase.md#signing)

The list: SUPABASE_DB_URL's database, else the embedded one in WAITLIST_DATA_DIR;
--project REF confirms the Supabase project a change goes to where nothing else
proves it the site's (docs/operating.md#which-list). Exit status: 0 done, 1 failed,
2 a mistake in the command or its setup, 3 import rejected rows.
`

type Option = { type: 'string' | 'boolean'; multiple?: boolean; value?: string; choices?: string[] }
const flag: Option = { type: 'boolean' }
const takes = (value: string, multiple = false): Option => ({ type: 'string', value, multiple })
const oneOf = (...choices: string[]): Option => ({ type: 'string', choices })
const COMMANDS: Record<string, Record<string, Option>> = {
  count: {},
  export: { format: oneOf('csv', 'json'), output: takes('FILE'), 'with-erasures': flag },
  stats: { days: takes('N'), format: oneOf('table', 'json') },
  remove: {},
  import: { restore: takes('ADDRESS', true), 'with-erasures': flag },
  check: {},
  'signing-secret': { set: flag, 'retire-previous': flag, force: flag },
}
const LIST_OPTIONS = { list: oneOf(...LISTS), project: takes('REF') }

function closest(typed: string, names: string[]): string | undefined {
  return (
    names.find((name) => leven(typed, name) <= 2) ??
    names.find((name) => typed.length >= 3 && name.startsWith(typed))
  )
}

// Without `--`, npm keeps an option it knows for itself (saying so only in npm_config_<name>),
// or drops one without a trace and passes its value on as an argument.
const underNpm = (env: Env) => env.npm_lifecycle_event === 'waitlist'
const npmHint = (name: string, option = '<option>') =>
  `put -- after \`npm run waitlist\` so that npm leaves the options to the command: npm run waitlist -- ${name || '<command>'} --${option} …`

function npmTook(env: Env): string | undefined {
  if (!underNpm(env)) return undefined
  return [...Object.values(COMMANDS), LIST_OPTIONS]
    .flatMap((options) => Object.keys(options))
    .find((name) => env[`npm_config_${name.replaceAll('-', '_')}`])
}

export function parse(argv: string[], env: Env) {
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
  let parsed
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true })
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
  const { values, positionals } = parsed as { values: Values; positionals: string[] }
  const [fewest, most, wants]: [number, number, string] =
    name === 'import'
      ? [1, 1, 'import takes one FILE, or - for standard input.']
      : name === 'remove'
        ? [1, Infinity, 'remove takes the ADDRESS to erase, or - to read them from standard input.']
        : [0, 0, `${name} takes no argument "${positionals[0]}".`]
  if (positionals.length < fewest || positionals.length > most) {
    const npm =
      underNpm(env) && positionals.length > most
        ? ` If it is an option's value, ${npmHint(name)}.`
        : ''
    throw new UsageError(wants + npm)
  }
  for (const [option, { choices }] of Object.entries(options)) {
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
    throw new UsageError('--with-erasures writes JSON: leave out --format csv.')
  if (values.set && values['retire-previous'])
    throw new UsageError('signing-secret takes --set or --retire-previous, not both.')
  return { name, values, positionals }
}
