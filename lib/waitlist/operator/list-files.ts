// The list as a file, as export writes it and import reads it: CSV (RFC 4180, a field a spreadsheet
// would run as a formula guarded by a leading ') or one JSON array.
import { once } from 'node:events'
import { text as readText } from 'node:stream/consumers'
import type { Readable, Writable } from 'node:stream'
import { CsvError, parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { WAITLIST_SOURCES } from '@/lib/waitlist/form-contract'
import { emailSchema, sourceSchema } from '@/lib/waitlist/schema'

export const LIST_FORMATS = ['csv', 'json'] as const
export type ListFormat = (typeof LIST_FORMATS)[number]
export type ListRow = { email: string; source: string; created_at: string }

/** A file that is no list: said in one line, exit status 1. */
export class ListFileError extends Error {}

const COLUMNS = ['email', 'source', 'created_at'] as const
const GUARDED = /^[=+\-@\t\r']/

const guard = (value: string) => (GUARDED.test(value) ? `'${value}` : value)
const unguard = (value: string) =>
  value.startsWith("'") && GUARDED.test(value.slice(1)) ? value.slice(1) : value

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain')
}

/** Resolves to the rows written. */
export async function writeList(
  pages: AsyncIterable<ListRow[]>,
  format: ListFormat,
  out: Writable,
): Promise<number> {
  const csv = (rows: string[][], header = false) =>
    stringify(rows, {
      header,
      columns: [...COLUMNS],
      record_delimiter: 'windows',
      quoted_match: GUARDED,
    })
  let written = 0
  await write(out, format === 'json' ? '[' : csv([], true))
  for await (const page of pages) {
    if (page.length === 0) continue
    await write(
      out,
      format === 'csv'
        ? csv(page.map((row) => COLUMNS.map((c) => guard(row[c]))))
        : `${written ? ',' : ''}\n${page.map((row) => JSON.stringify(row)).join(',\n')}`,
    )
    written += page.length
  }
  if (format === 'json') await write(out, written ? '\n]\n' : ']\n')
  return written
}

export type ImportRow = { line: number; email: string; source: string; created_at?: string }
export type Rejected = { line: number; reason: string }

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i

/** A row checked by the site's own schema. */
function check(line: number, fields: Record<string, unknown>): ImportRow | Rejected {
  const email = emailSchema.safeParse(fields.email)
  if (!email.success)
    return { line, reason: `not an address the site takes: ${JSON.stringify(fields.email ?? '')}` }
  const source = sourceSchema.safeParse(fields.source)
  if (!source.success) {
    const not = JSON.stringify(fields.source ?? '')
    return { line, reason: `source must be ${WAITLIST_SOURCES.join(' or ')}, not ${not}` }
  }
  const at = fields.created_at
  if (at === undefined || at === null || at === '')
    return { line, email: email.data, source: source.data }
  if (typeof at !== 'string' || !TIMESTAMP.test(at.trim()))
    return { line, reason: `created_at is not a time with a UTC offset: ${JSON.stringify(at)}` }
  return { line, email: email.data, source: source.data, created_at: at.trim() }
}

function csvRecords(text: string): [number, Record<string, unknown>][] {
  try {
    const records = parse(text, {
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      info: true,
    }) as { info: { lines: number }; record: Record<string, string> }[]
    return records.map(({ info, record }) => [
      info.lines,
      Object.fromEntries(Object.entries(record).map(([name, value]) => [name, unguard(value)])),
    ])
  } catch (error) {
    if (error instanceof CsvError)
      throw new ListFileError(`line ${String(error.lines)}: ${error.message}`)
    throw error
  }
}

const readAll = async (input: Readable) => (await readText(input)).replace(/^\uFEFF/, '')

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ListFileError(`not valid JSON: ${(error as Error).message}`)
  }
}

/** Entries are counted from 1, as lines are in a CSV. */
const checkAll = (list: unknown[]) =>
  list.map((entry, i) =>
    check(
      i + 1,
      typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {},
    ),
  )

/** JSON told by its first character, or by `format`. */
export async function readList(
  input: Readable,
  format?: ListFormat,
): Promise<(ImportRow | Rejected)[]> {
  const text = await readAll(input)
  if (!text.trim()) throw new ListFileError('the file is empty.')
  if (format ? format === 'json' : /^\s*\[/.test(text)) {
    const list = parseJson(text)
    if (!Array.isArray(list))
      throw new ListFileError('a JSON list is an array of objects with email and source.')
    return checkAll(list)
  }
  const records = csvRecords(text)
  if (records.length > 0 && !('email' in records[0]![1] && 'source' in records[0]![1]))
    throw new ListFileError(
      'line 1 must name the columns, email and source among them, as export writes them.',
    )
  return records.map(([line, fields]) => check(line, fields))
}

/** Keyed hashes of erased addresses, and the key that makes them. */
export type Erasures = { key: string; marks: { email_hash: string; erased_at: string }[] }

/** One JSON object, the list last, written page by page. */
export async function writeBackup(
  pages: AsyncIterable<ListRow[]>,
  { key, marks }: Erasures,
  out: Writable,
): Promise<number> {
  await write(
    out,
    `{"erasure_key": ${JSON.stringify(key)},\n"erasures": ${JSON.stringify(marks)},\n"list": `,
  )
  const written = await writeList(pages, 'json', out)
  await write(out, '}\n')
  return written
}

const HEX = /^(?:[0-9a-f]{2})+$/

export async function readBackup(
  input: Readable,
): Promise<{ rows: (ImportRow | Rejected)[]; erasures: Erasures }> {
  const backup = parseJson(await readAll(input)) as Record<string, unknown> | null
  const { erasure_key: key, erasures: marks, list } = backup ?? {}
  const sound =
    typeof key === 'string' &&
    HEX.test(key) &&
    Array.isArray(list) &&
    Array.isArray(marks) &&
    marks.every((mark) => HEX.test(mark?.email_hash) && typeof mark?.erased_at === 'string')
  if (!sound)
    throw new ListFileError(
      'not a backup with erasures (erasure_key, erasures, list), as export --with-erasures writes it.',
    )
  return {
    rows: checkAll(list),
    erasures: { key, marks: marks as Erasures['marks'] },
  }
}
