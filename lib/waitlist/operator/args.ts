import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import { EXPORT_FORMATS, type ExportFormat } from './format'
import { IMPORT_FORMATS, type ImportFormat } from './import-file'
import { DEFAULT_STATS_DAYS, MAX_STATS_DAYS, STATS_FORMATS, type StatsFormat } from './stats'

export const USAGE = `Usage:
  npm run waitlist -- count
  npm run waitlist -- export [--format csv|json] [--output FILE]
  npm run waitlist -- stats [--days N] [--format table|json]
  npm run waitlist -- remove ADDRESS... | --from FILE | - [--dry-run]
  npm run waitlist -- import FILE [--format csv|json]
  npm run waitlist -- check

Works on the configured store: Supabase when a Supabase URL is set (with
SUPABASE_SERVICE_ROLE_KEY or SUPABASE_SECRET_KEY), else the embedded database
in WAITLIST_DATA_DIR (default .data/waitlist). Reads the .env files next dev
reads (those next start reads with NODE_ENV=production).

  count, export, stats  read the list; the embedded database is read from a
                        copy, so a running server is no obstacle. The export
                        goes to stdout unless --output names a new file in a
                        folder that exists (exports/ is kept out of git).
                        stats shows the last --days N days (default ${DEFAULT_STATS_DAYS}, in UTC).
  remove                deletes each address, whatever its case; addresses
                        come one a line from FILE, or from standard input
                        with -. --dry-run only says what would go, from a copy.
  import                adds a list (CSV as export writes it, or JSON),
                        skipping addresses already on it.
  check                 says whether every migration in supabase/migrations
                        is applied, whether the signup limits are in place,
                        and the ceiling in force; or, in one line, what is
                        missing and what to do. It changes nothing.
  remove and import change the embedded database in its folder, so they
  refuse while a server holds it: stop the server first.

Exit status: 0 done; 1 the store, or the import file's content, could not be
used, or check found something missing; 2 a mistake on the command line (a
command, an option, a file to read that is not there, an output file that
exists or cannot be made); 3 import finished but rejected some rows (each is
named by its line).
`

export type Command =
  | { name: 'help' }
  | { name: 'count' }
  | { name: 'export'; format: ExportFormat; output?: string }
  | { name: 'stats'; days: number; format: StatsFormat }
  /** `sources` are files to read addresses from, one a line; `-` is standard input. */
  | { name: 'remove'; addresses: string[]; sources: string[]; dryRun: boolean }
  | { name: 'import'; file: string; format?: ImportFormat }
  | { name: 'check' }

export class UsageError extends Error {}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string) {
  if (value === undefined) return undefined
  if (!allowed.includes(value as T)) {
    throw new UsageError(`${flag} must be ${allowed.join(' or ')}, not "${value}".`)
  }
  return value as T
}

function days(value: string | undefined): number {
  if (value === undefined) return DEFAULT_STATS_DAYS
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_STATS_DAYS) {
    throw new UsageError(
      `--days must be a whole number from 1 to ${MAX_STATS_DAYS}, not "${value}".`,
    )
  }
  return n
}

function parse<O extends ParseArgsOptionsConfig>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

function noPositionals(positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals.join(' ')}`)
}

export function parseCommand(argv: string[]): Command {
  const [name, ...rest] = argv
  if (name === 'help' || name === '--help' || name === '-h') return { name: 'help' }
  if (!name) {
    throw new UsageError('Name a command: count, export, stats, remove, import, check or help.')
  }
  switch (name) {
    case 'count':
    case 'check':
      noPositionals(parse(rest, {}).positionals)
      return { name }
    case 'export': {
      const { values, positionals } = parse(rest, {
        format: { type: 'string' },
        output: { type: 'string', short: 'o' },
      })
      noPositionals(positionals)
      const format = oneOf(values.format, EXPORT_FORMATS, '--format') ?? 'csv'
      return { name, format, output: values.output }
    }
    case 'stats': {
      const { values, positionals } = parse(rest, {
        days: { type: 'string' },
        format: { type: 'string' },
      })
      noPositionals(positionals)
      const format = oneOf(values.format, STATS_FORMATS, '--format') ?? 'table'
      return { name, days: days(values.days), format }
    }
    case 'remove': {
      const { values, positionals } = parse(rest, {
        from: { type: 'string', multiple: true },
        'dry-run': { type: 'boolean' },
      })
      const sources = [...(values.from ?? []), ...positionals.filter((arg) => arg === '-')]
      const addresses = positionals.filter((arg) => arg !== '-')
      if (addresses.length === 0 && sources.length === 0) {
        throw new UsageError(
          'remove needs the addresses: as arguments, --from FILE, or - to read them from standard input.',
        )
      }
      return { name, addresses, sources, dryRun: values['dry-run'] ?? false }
    }
    case 'import': {
      const { values, positionals } = parse(rest, { format: { type: 'string' } })
      if (positionals.length !== 1)
        throw new UsageError('import needs exactly one FILE (or - for standard input).')
      return {
        name,
        file: positionals[0]!,
        format: oneOf(values.format, IMPORT_FORMATS, '--format'),
      }
    }
    default:
      throw new UsageError(`Unknown command: ${name}`)
  }
}
