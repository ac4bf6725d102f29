import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { writeExport } from '@/lib/waitlist/operator/cli'
import { EXPORT_FORMATS, formatExport, type ExportFormat } from '@/lib/waitlist/operator/format'
import { ReadError, type WaitlistReader, type WaitlistRow } from '@/lib/waitlist/operator/reader'
import { sink } from './support/sink'

const row = (email: string): WaitlistRow => ({
  email,
  source: 'hero_section',
  created_at: '2024-05-01T10:00:00+00:00',
})

async function* pagesOf(...pages: WaitlistRow[][]) {
  yield* pages
}

async function text(pages: AsyncIterable<WaitlistRow[]>, format: ExportFormat) {
  const out = sink()
  await formatExport(pages, format, out.stream)
  await new Promise((resolve) => out.stream.end(resolve))
  return out.text()
}

/** One row's CSV line, without the header and the line end. */
async function csvLine(email: string) {
  const lines = (await text(pagesOf([row(email)]), 'csv')).split('\r\n')
  expect(lines[0]).toBe('email,source,created_at')
  expect(lines.at(-1)).toBe('')
  return lines.slice(1, -1).join('\r\n')
}

describe('a CSV field', () => {
  it.each([
    ['anna@example.com', 'anna@example.com'],
    ['a"b@example.com', '"a""b@example.com"'],
    ['a,b@example.com', '"a,b@example.com"'],
    ['a\nb', '"a\nb"'],
    ['a\rb', '"a\rb"'],
    ['a\r\nb', '"a\r\nb"'],
  ])('is quoted when it needs to be: %j', async (value, expected) => {
    expect(await csvLine(value)).toBe(`${expected},hero_section,2024-05-01T10:00:00+00:00`)
  })

  it.each([
    '=1+1@x.io',
    '+1@x.io',
    '-1@x.io',
    '@x.io',
    '\tx@x.io',
    "'x@x.io",
    '=HYPERLINK("http://x")@x.io',
  ])('cannot run as a spreadsheet formula: %j', async (value) => {
    const field = (await csvLine(value)).split(',hero_section,')[0]!
    expect(field.startsWith(`"'`)).toBe(true)
    expect(field.slice(2, -1).replace(/""/g, '"')).toBe(value)
  })
})

describe('formatExport', () => {
  it('writes a CSV header, then one line per row across pages', async () => {
    const out = await text(pagesOf([row('a@x.io'), row('b,c@x.io')], [row('d@x.io')]), 'csv')
    expect(out).toBe(
      'email,source,created_at\r\n' +
        'a@x.io,hero_section,2024-05-01T10:00:00+00:00\r\n' +
        '"b,c@x.io",hero_section,2024-05-01T10:00:00+00:00\r\n' +
        'd@x.io,hero_section,2024-05-01T10:00:00+00:00\r\n',
    )
  })

  it('writes a JSON array that parses back to the rows, empty or not', async () => {
    const rows = [row('a"b@x.io'), row('c@x.io'), row('d@x.io')]
    const out = await text(pagesOf(rows.slice(0, 2), rows.slice(2)), 'json')
    expect(out).toBe(`[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`)
    expect(JSON.parse(out)).toEqual(rows)
    expect(await text(pagesOf(), 'json')).toBe('[]\n')
    expect(await text(pagesOf(), 'csv')).toBe('email,source,created_at\r\n')
  })

  it('ends with the store’s error when the list fails part way, and leaves the output open', async () => {
    async function* failing() {
      yield [row('a@x.io')]
      throw new ReadError('Supabase refused to read the list (HTTP 401)')
    }
    for (const format of EXPORT_FORMATS) {
      const out = sink()
      await expect(formatExport(failing(), format, out.stream)).rejects.toThrow(ReadError)
      expect(out.stream.writableEnded).toBe(false)
      expect(out.stream.destroyed).toBe(false)
    }
    const out = sink()
    await formatExport(pagesOf([row('a@x.io')]), 'csv', out.stream)
    expect(out.stream.writableEnded).toBe(false)
  })
})

describe('streaming', () => {
  it('exports 100,000 rows holding a page and a few buffers, never the list', async () => {
    const pageSize = 1000
    const pageCount = 100
    let rowsRead = 0
    let linesWritten = 0
    let widest = 0
    let lastLine = ''
    // A slow pipe, as to a file or a terminal: each write completes on a later turn.
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const parts = chunk.toString().split('\r\n')
        linesWritten += parts.length - 1
        lastLine = parts.at(-2) ?? lastLine
        setImmediate(done)
      },
    })
    const reader: WaitlistReader = {
      description: 'a generated list',
      stats: () => Promise.reject(new Error('not asked')),
      count: async () => pageSize * pageCount,
      has: async () => false,
      async *pages(size) {
        for (let page = 0; page < pageCount; page++) {
          // Rows read from the store that have not reached the output yet, as the next page is read.
          widest = Math.max(widest, rowsRead - linesWritten)
          rowsRead += size
          yield Array.from({ length: size }, (_, i) => row(`person${page * size + i + 1}@x.io`))
        }
      },
      close: async () => {},
    }
    await writeExport(reader, 'csv', out, pageSize)
    await new Promise((resolve) => out.end(resolve))
    expect(linesWritten).toBe(pageSize * pageCount + 1)
    expect(lastLine).toBe('person100000@x.io,hero_section,2024-05-01T10:00:00+00:00')
    // The page in hand, and the streams' buffers (about 80 kB of text): without backpressure
    // the reads would run ahead by most of the 5 MB list.
    expect(widest).toBeLessThanOrEqual(pageSize + 2000)
  })
})
