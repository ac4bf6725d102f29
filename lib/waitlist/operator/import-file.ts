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

/** Without a byte-order mark, and with every line end (\r\n, \r, \n) as \n, across chunk boundaries. */
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

type CsvRecord = { line: number; values: string[] } | { line: number; problem: string }

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  let values: string[] = []
  let field = ''
  let quoted = false
  let quoteSeen = false
  let line = 1
  let start = 1
  let fresh = true
  for await (const chunk of chunks) {
    for (const c of chunk) {
      if (quoteSeen) {
        quoteSeen = false
        if (c === '"') {
          field += '"'
          continue
        }
        quoted = false
      }
      if (quoted) {
        if (c === '"') quoteSeen = true
        else field += c
        if (c === '\n') line++
        continue
      }
      if (fresh) {
        start = line
        fresh = false
      }
      if (c === '"' && field === '') {
        quoted = true
      } else if (c === ',') {
        values.push(field)
        field = ''
      } else if (c === '\n') {
        values.push(field)
        // A blank line is no record.
        if (values.length > 1 || values[0] !== '') yield { line: start, values }
        values = []
        field = ''
        line++
        fresh = true
      } else {
        field += c
      }
    }
  }
  if (quoted && !quoteSeen) {
    yield { line: start, problem: 'a quoted field is never closed (the file may be cut short)' }
  } else if (!fresh) {
    values.push(field)
    if (values.length > 1 || values[0] !== '') yield { line: start, values }
  }
}

async function* csvFile(chunks: AsyncIterable<string>): AsyncGenerator<FileRecord> {
  let columns: string[] | undefined
  for await (const record of csvRecords(chunks)) {
    if ('problem' in record) {
      yield record
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
    const first = next.value.split('').find((c) => !isSpace(c))
    // `{` too: a JSON object alone is then refused as JSON, which says what is wrong with it.
    if (first !== undefined)
      return { format: first === '[' || first === '{' ? 'json' : 'csv', head }
  }
  return { format: undefined, head }
}

/**
 * The records of a list file. Without `format`, a file whose first character
 * is `[` or `{` is read as JSON, any other as CSV.
 */
export async function* readListFile(
  chunks: AsyncIterable<string>,
  format?: ImportFormat,
): AsyncGenerator<FileRecord> {
  const iterator = normalised(chunks)[Symbol.asyncIterator]()
  const { format: sniffed, head } = await sniff(iterator)
  if (!sniffed) throw new ImportFileError('The file is empty.')
  async function* whole() {
    yield* head
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      yield next.value
    }
  }
  yield* (format ?? sniffed) === 'json' ? jsonFile(whole()) : csvFile(whole())
}
