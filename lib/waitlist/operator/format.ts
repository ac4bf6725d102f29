import type { WaitlistRow } from './reader'

export const EXPORT_FORMATS = ['csv', 'json'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

const CSV_COLUMNS = ['email', 'source', 'created_at'] as const
const CSV_LINE_END = '\r\n'

/**
 * What a spreadsheet would run as a formula (= + - @, tab, carriage return),
 * and the apostrophe itself, so that a guard can always be told apart from
 * an address that starts with one.
 */
const GUARDED = /^[=+\-@\t\r']/

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line
 * break, quotes doubled. A field a spreadsheet would run as a formula gets a
 * leading apostrophe and is quoted, so it opens as text; the database allows
 * such addresses. {@link unguardCsvField} takes the apostrophe off again.
 */
export function csvField(value: string): string {
  const guarded = GUARDED.test(value) ? `'${value}` : value
  return guarded !== value || /[",\r\n]/.test(guarded)
    ? `"${guarded.replace(/"/g, '""')}"`
    : guarded
}

/** A field as {@link csvField} wrote it, without its formula guard: `'-ann@x.io` → `-ann@x.io`. */
export function unguardCsvField(value: string): string {
  return value.startsWith("'") && GUARDED.test(value.slice(1)) ? value.slice(1) : value
}

function csvLine(row: WaitlistRow): string {
  return CSV_COLUMNS.map((column) => csvField(row[column])).join(',') + CSV_LINE_END
}

/**
 * The list as text, one chunk per page, so the caller can write each chunk
 * and wait for the output to drain before the next page is read.
 */
export async function* formatExport(
  pages: AsyncIterable<WaitlistRow[]>,
  format: ExportFormat,
): AsyncGenerator<string> {
  if (format === 'csv') {
    yield CSV_COLUMNS.join(',') + CSV_LINE_END
    for await (const rows of pages) yield rows.map(csvLine).join('')
    return
  }
  let first = true
  yield '['
  for await (const rows of pages) {
    const items = rows.map((row) =>
      JSON.stringify({ email: row.email, source: row.source, created_at: row.created_at }),
    )
    yield (first ? '\n' : ',\n') + items.join(',\n')
    first = false
  }
  yield first ? ']\n' : '\n]\n'
}
