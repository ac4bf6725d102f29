import { Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { stringify } from 'csv-stringify'
import type { WaitlistRow } from './reader'

export const EXPORT_FORMATS = ['csv', 'json'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

const CSV_COLUMNS = ['email', 'source', 'created_at'] as const

/**
 * What a spreadsheet would run as a formula (= + - @, tab, carriage return),
 * and the apostrophe itself, so that a guard can always be told apart from
 * an address that starts with one. csv-stringify's own `escape_formulas`
 * leaves the apostrophe alone, so an import could not tell the two apart.
 */
const GUARDED = /^[=+\-@\t\r']/

/** A field a spreadsheet would run gets a leading apostrophe; the database allows such addresses. */
export function guardCsvField(value: string): string {
  return GUARDED.test(value) ? `'${value}` : value
}

/** A field as {@link guardCsvField} wrote it, without its guard: `'-ann@x.io` → `-ann@x.io`. */
export function unguardCsvField(value: string): string {
  return value.startsWith("'") && GUARDED.test(value.slice(1)) ? value.slice(1) : value
}

/**
 * Rows in, RFC 4180 text out: a header, CRLF line ends, fields with a quote,
 * comma or line break quoted. A guarded field is quoted too, so it reads as
 * text wherever it is opened.
 */
export function csvExport() {
  return stringify({
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: 'windows',
    // A lone \n or \r ends a line too for most readers (import's among them): quote those as well.
    quote_record_delimiter: true,
    cast: {
      string: (value) => {
        const guarded = guardCsvField(value)
        return guarded === value ? value : { value: guarded, quoted: true }
      },
    },
  })
}

/** Rows in, one JSON array out, an entry a line. */
export async function* jsonExport(rows: AsyncIterable<WaitlistRow>): AsyncGenerator<string> {
  let first = true
  yield '['
  for await (const { email, source, created_at } of rows) {
    yield (first ? '\n' : ',\n') + JSON.stringify({ email, source, created_at })
    first = false
  }
  yield first ? ']\n' : '\n]\n'
}

async function* rowsOf(pages: AsyncIterable<WaitlistRow[]>): AsyncGenerator<WaitlistRow> {
  for await (const page of pages) yield* page
}

/**
 * Writes the list, formatted, into `out`, and resolves once `out` has taken
 * it all, leaving `out` open. Each stage
 * waits for the next to take what it has (backpressure), so memory holds a
 * page and a few buffers however long the list is; a failure anywhere (the
 * store mid-list, a full disk) ends the whole pipeline with it.
 */
export async function formatExport(
  pages: AsyncIterable<WaitlistRow[]>,
  format: ExportFormat,
  out: Writable,
): Promise<void> {
  const rows = Readable.from(rowsOf(pages))
  if (format === 'csv') await pipeline(rows, csvExport(), out, { end: false })
  else await pipeline(rows, jsonExport, out, { end: false })
  // Writes complete in order: once this one has, `out` has taken everything before it.
  await new Promise<void>((resolve, reject) =>
    out.write('', (error) => (error ? reject(error) : resolve())),
  )
}
