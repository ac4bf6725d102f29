import { Readable } from 'node:stream'
import { parse, type CsvError, type Parser } from 'csv-parse'
import { unguardCsvField } from './format'

/**
 * Reads a list file (CSV as `export` writes it, or a JSON array of objects)
 * as it streams in, one record at a time, each with the line it starts on:
 * memory holds one record, however long the file.
 */
export const IMPORT_FORMATS = ['csv', 'json'] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

/** A record's fields by column name, or what is wrong with it; `line` is where it starts, from 1. */
export type FileRecord =
  { line: number; fields: Record<string, unknown> } | { line: number; problem: string }

/** A file that cannot be read as a list at all (no header, not a JSON array, cut short). */
export class ImportFileError extends Error {
  override name = 'ImportFileError'
}

/** One JSON entry may be this long; a longer one is not a signup, and would have memory grow. */
const MAX_ENTRY_LENGTH = 64 * 1024

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r'

/** For the JSON reader: without a byte-order mark, every line end (\r\n, \r, \n) as \n, across chunks. */
async function* normalised(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let first = true
  let heldCarriageReturn = false
  for await (let chunk of chunks) {
    if (first && chunk.length > 0) {
      first = false
      if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1)
    }
    if (heldCarriageReturn) chunk = `\r${chunk}`
    heldCarriageReturn = chunk.endsWith('\r')
    if (heldCarriageReturn) chunk = chunk.slice(0, -1)
    yield chunk.replace(/\r\n?/g, '\n')
  }
  if (heldCarriageReturn) yield '\n'
}

/** One CSV record longer than this is not a signup: most likely a quote never closed, swallowing the file. */
const MAX_RECORD_BYTES = 64 * 1024

/** What went wrong in a CSV, said for a person editing the file. */
function csvProblem(error: CsvError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (the file may be cut short)'
    case 'CSV_MAX_RECORD_SIZE':
      return 'a row longer than 64 KB is not a signup (a quote that is never closed?)'
    default:
      return error.message
  }
}

type CsvRow = { line: number; values: string[] } | { line: number; problem: string; last: boolean }

const LINE_BREAK = /\r\n|\r|\n/g

/**
 * RFC 4180 records, read by csv-parse as they stream in, each with the line
 * it starts on as a text editor counts them (any line end; breaks inside
 * quotes too). Blank lines are no record. A record the parser cannot read
 * ends the file there: everything before it is given first, and only an
 * unclosed quote at the very end leaves nothing unread after it.
 */
async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvRow> {
  let failed = false
  const parser: Parser = parse({
    bom: true,
    record_delimiter: ['\r\n', '\r', '\n'],
    relax_column_count: true,
    // A stray quote is taken as part of its field, as a hand-made file means it; the address check
    // then refuses the row, by its line, and the rest of the file is read.
    relax_quotes: true,
    max_record_size: MAX_RECORD_BYTES,
    // A bad record does not destroy the stream, which would drop the good ones parsed before it
    // but not yet read: it is passed on in its place, in order, and reading stops there.
    skip_records_with_error: true,
    on_skip: (error) => {
      if (!error || failed) return
      failed = true
      parser.push({ error })
    },
  })
  // Text, not objects: the buffer is counted in characters (64 kB), not in chunks of any size.
  const source = Readable.from(chunks, { objectMode: false })
  source.on('error', (error) => parser.destroy(error))
  source.pipe(parser)
  let line = 1
  try {
    for await (const record of parser as AsyncIterable<string[] | { error: CsvError }>) {
      if (!Array.isArray(record)) {
        const last = record.error.code === 'CSV_QUOTE_NOT_CLOSED'
        yield { line, problem: csvProblem(record.error), last }
        return
      }
      const start = line
      line +=
        1 + record.reduce((breaks, value) => breaks + (value.match(LINE_BREAK)?.length ?? 0), 0)
      // A blank line is no record.
      if (record.length > 1 || record[0] !== '') yield { line: start, values: record }
    }
  } finally {
    source.destroy()
    parser.destroy()
  }
}

async function* csvFile(chunks: AsyncIterable<string>): AsyncGenerator<FileRecord> {
  let columns: string[] | undefined
  for await (const record of csvRecords(chunks)) {
    if ('problem' in record) {
      if (!record.last)
        throw new ImportFileError(
          `line ${record.line}: ${record.problem}; nothing after it was read.`,
        )
      yield { line: record.line, problem: record.problem }
    } else if (!columns) {
      columns = record.values.map((name) => name.trim().toLowerCase())
      if (!columns.includes('email') || !columns.includes('source')) {
        throw new ImportFileError(
          `line ${record.line}: the first line must name the columns, email and source among them ` +
            `(created_at is optional), as export writes them.`,
        )
      }
    } else {
      const fields: Record<string, unknown> = {}
      columns.forEach((name, i) => {
        const value = record.values[i]
        if (!(name in fields))
          fields[name] = value === undefined ? undefined : unguardCsvField(value)
      })
      yield { line: record.line, fields }
    }
  }
}

function entry(text: string, line: number): FileRecord {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ImportFileError(`line ${line}: this entry is not valid JSON.`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, problem: 'not an object with email and source' }
  }
  return { line, fields: value as Record<string, unknown> }
}

/** A JSON array, one entry at a time: each entry's text is gathered up to the comma that ends it. */
async function* jsonFile(chunks: AsyncIterable<string>): AsyncGenerator<FileRecord> {
  let state: 'open' | 'entry' | 'inEntry' | 'closed' = 'open'
  let line = 1
  let text = ''
  let textLine = 0
  let depth = 0
  let inString = false
  let escaped = false
  for await (const chunk of chunks) {
    for (const c of chunk) {
      if (state === 'open') {
        if (c === '[') state = 'entry'
        else if (!isSpace(c)) throw new ImportFileError(`line ${line}: a JSON list starts with [.`)
      } else if (state === 'closed') {
        if (!isSpace(c)) throw new ImportFileError(`line ${line}: there is text after the list.`)
      } else if (state === 'entry' && (isSpace(c) || c === ']')) {
        if (c === ']') state = 'closed'
      } else {
        if (state === 'entry') {
          state = 'inEntry'
          text = ''
          textLine = line
        }
        if (inString) {
          text += c
          if (escaped) escaped = false
          else if (c === '\\') escaped = true
          else if (c === '"') inString = false
        } else if (depth === 0 && (c === ',' || c === ']')) {
          yield entry(text, textLine)
          state = c === ',' ? 'entry' : 'closed'
        } else {
          text += c
          if (c === '"') inString = true
          else if (c === '{' || c === '[') depth++
          else if (c === '}' || c === ']') depth--
        }
        if (text.length > MAX_ENTRY_LENGTH) {
          throw new ImportFileError(`line ${textLine}: an entry longer than 64 KB is not a signup.`)
        }
      }
      if (c === '\n') line++
    }
  }
  if (state !== 'closed') {
    throw new ImportFileError(
      'The file ends before its list is closed with ]: it may be cut short.',
    )
  }
}

/** The first chunks, read until the first character that is not white space says which format it is. */
async function sniff(
  chunks: AsyncIterator<string>,
): Promise<{ format: ImportFormat | undefined; head: string[] }> {
  const head: string[] = []
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    head.push(next.value)
    const first = next.value.split('').find((c) => !isSpace(c) && c !== '\uFEFF')
    // `{` too: a JSON object alone is then refused as JSON, which says what is wrong with it.
    if (first !== undefined)
      return { format: first === '[' || first === '{' ? 'json' : 'csv', head }
  }
  return { format: undefined, head }
}

/** The chunks, with a failure to read them said as one. */
async function* readable(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  try {
    yield* chunks
  } catch (error) {
    throw new ImportFileError(`The file could not be read: ${(error as Error).message}`, {
      cause: error,
    })
  }
}

/**
 * The records of a list file. Without `format`, a file whose first character
 * is `[` or `{` is read as JSON, any other as CSV.
 */
export async function* readListFile(
  chunks: AsyncIterable<string>,
  format?: ImportFormat,
): AsyncGenerator<FileRecord> {
  const iterator = readable(chunks)[Symbol.asyncIterator]()
  const { format: sniffed, head } = await sniff(iterator)
  if (!sniffed) throw new ImportFileError('The file is empty.')
  async function* whole() {
    yield* head
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      yield next.value
    }
  }
  yield* (format ?? sniffed) === 'json' ? jsonFile(normalised(whole())) : csvFile(whole())
}
