// The list as a file, as export writes it and import reads it: CSV (RFC 4180, a field a spreadsheet
// would run as a formula guarded by a leading ') or one JSON array; and the files an operator names.
import { readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { text } from 'node:stream/consumers'
import { CsvError, parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { z } from 'zod'
import { WAITLIST_SOURCES } from '@/lib/waitlist/form-contract'
import { emailSchema, sourceSchema } from '@/lib/waitlist/schema'
import { Failure, UsageError, type Io } from './io'

export type ListFormat = 'csv' | 'json'
export type Signup = { email: string; source: string; created_at: string }

const GUARDED = /^[=+\-@\t\r']/

export function listFile(rows: Signup[], format: ListFormat): string {
  if (format === 'json')
    return rows.length ? `[\n${rows.map((row) => JSON.stringify(row)).join(',\n')}\n]\n` : '[]\n'
  return stringify(rows, {
    header: true,
    columns: ['email', 'source', 'created_at'],
    record_delimiter: 'windows',
    quoted_match: GUARDED,
    cast: { string: (value) => (GUARDED.test(value) ? `'${value}` : value) },
  })
}

/** A new file its owner alone can read (it holds people's addresses), whole or not at all. */
export async function writeNewFile(file: string, text: string): Promise<void> {
  await writeFile(file, text, { flag: 'wx', mode: 0o600 }).catch(
    async ({ code, message }: NodeJS.ErrnoException) => {
      if (code === 'EEXIST')
        throw new UsageError(`${file} exists, and export never writes over a file: name a new one.`)
      await rm(file, { force: true }).catch(() => {})
      throw new UsageError(`cannot make ${file}: ${message}`)
    },
  )
}

type Fields = Record<string, unknown>
export type ImportRow = { line: number; email: string; source: string; created_at?: string }
export type Rejected = { line: number; reason: string }

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i

function validRow(line: number, fields: Fields): ImportRow | Rejected {
  const email = emailSchema.safeParse(fields.email)
  if (!email.success)
    return { line, reason: `not an address the site takes: ${JSON.stringify(fields.email ?? '')}` }
  const source = sourceSchema.safeParse(fields.source)
  if (!source.success) {
    const not = JSON.stringify(fields.source ?? '')
    return { line, reason: `source must be ${WAITLIST_SOURCES.join(' or ')}, not ${not}` }
  }
  const at = fields.created_at ?? ''
  if (typeof at !== 'string' || (at !== '' && !TIMESTAMP.test(at.trim())))
    return { line, reason: `created_at is not a time with a UTC offset: ${JSON.stringify(at)}` }
  return { line, email: email.data, source: source.data, created_at: at.trim() || undefined }
}

/** A column's name in any case and spacing; a field without the ' export put before a formula. */
function csvValue(value: string, { header }: { header: boolean }): string {
  if (header) return value.trim().toLowerCase()
  if (value.startsWith("'") && GUARDED.test(value.slice(1))) return value.slice(1)
  return value
}

function csvRecords(text: string): [number, Fields][] {
  try {
    return parse<[number, Fields], Fields>(text, {
      columns: true,
      cast: csvValue,
      on_record: (record, { lines }) => [lines, record],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    })
  } catch (error) {
    if (error instanceof CsvError)
      throw new Failure(`line ${String(error.lines)}: ${error.message}`)
    throw error
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new Failure(`not valid JSON: ${(error as Error).message}`)
  }
}

/** Entries are counted from 1, as lines are in a CSV. */
const checkAll = (list: unknown[]) =>
  list.map((entry, i) => validRow(i + 1, Object(entry) as Fields))

export function readList(text: string): (ImportRow | Rejected)[] {
  if (!text.trim()) throw new Failure('the file is empty.')
  if (/^\s*[[{]/.test(text)) {
    const list = parseJson(text)
    if (list && typeof list === 'object' && 'erasure_key' in list)
      throw new UsageError(
        'the file is a backup with erasures, as export --with-erasures writes it: import it with --with-erasures.',
      )
    if (!Array.isArray(list))
      throw new Failure('a JSON list is an array of objects with email and source.')
    return checkAll(list)
  }
  const records = csvRecords(text)
  if (records.length > 0 && !('email' in records[0]![1] && 'source' in records[0]![1]))
    throw new Failure(
      'line 1 must name the columns, email and source among them, as export writes them.',
    )
  return records.map(([line, fields]) => validRow(line, fields))
}

/** Keyed hashes of erased addresses, and the key that makes them. */
export type Erasures = { key: string; marks: z.infer<typeof backupSchema>['erasures'] }

/** One JSON object, the list last. */
export function backupFile(rows: Signup[], { key, marks }: Erasures): string {
  return `{"erasure_key": ${JSON.stringify(key)},\n"erasures": ${JSON.stringify(marks)},\n"list": ${listFile(rows, 'json')}}\n`
}

const hex = z.string().regex(/^(?:[0-9a-f]{2})+$/)
const backupSchema = z.object({
  erasure_key: hex,
  erasures: z.array(
    z.object({ email_hash: hex, erased_at: z.string(), held_back_at: z.string().nullish() }),
  ),
  list: z.array(z.unknown()),
})

export function readBackup(text: string): { rows: (ImportRow | Rejected)[]; erasures: Erasures } {
  if (!/^\s*\{/.test(text))
    throw new UsageError(
      'import --with-erasures reads a backup, the JSON object export --with-erasures writes; this file is not one: leave out --with-erasures to import a list.',
    )
  const backup = backupSchema.safeParse(parseJson(text))
  if (!backup.success)
    throw new Failure(
      'not a backup with erasures (erasure_key, erasures, list), as export --with-erasures writes it.',
    )
  const { erasure_key: key, erasures: marks, list } = backup.data
  return { rows: checkAll(list), erasures: { key, marks } }
}

/** An export holds people's addresses: a new file outside the project, or in exports/ (ignored). */
export async function checkOutput(file: string): Promise<void> {
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
export async function readInput(file: string, io: Io): Promise<string> {
  const read = file === '-' ? text(io.stdin) : readFile(file, 'utf8')
  const whole = await read.catch(({ code, message }: NodeJS.ErrnoException) => {
    if (code === 'ENOENT') throw new UsageError(`there is no file ${file} to import.`)
    if (code === 'EISDIR')
      throw new UsageError(`${file} is a folder: import takes a file, or - for standard input.`)
    throw new UsageError(`cannot read ${file}: ${message}`)
  })
  return whole.replace(/^\uFEFF/, '')
}
