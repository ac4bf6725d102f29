import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { writeExport } from '@/lib/waitlist/operator/cli'
import { csvField, formatExport } from '@/lib/waitlist/operator/format'
import type { WaitlistReader, WaitlistRow } from '@/lib/waitlist/operator/reader'
import { sink } from './support/sink'

const row = (email: string): WaitlistRow => ({
  email,
  source: 'hero_section',
  created_at: '2024-05-01T10:00:00+00:00',
})

async function text(chunks: AsyncIterable<string>) {
  let out = ''
  for await (const chunk of chunks) out += chunk
  return out
}

async function* pagesOf(...pages: WaitlistRow[][]) {
  yield* pages
}

describe('csvField', () => {
  it.each([
    ['anna@example.com', 'anna@example.com'],
    ['a"b@example.com', '"a""b@example.com"'],
    ['a,b@example.com', '"a,b@example.com"'],
    ['a\nb', '"a\nb"'],
    ['a\r\nb', '"a\r\nb"'],
  ])('quotes what needs quoting: %j', (value, expected) => {
    expect(csvField(value)).toBe(expected)
  })

  it.each(['=1+1@x.io', '+1@x.io', '-1@x.io', '@x.io', '\tx@x.io', '=HYPERLINK("http://x")@x.io'])(
    'keeps a spreadsheet from running %j as a formula',
    (value) => {
      const field = csvField(value)
      expect(field.startsWith(`"'`)).toBe(true)
      expect(field.slice(2, -1).replace(/""/g, '"')).toBe(value)
    },
  )
})

describe('formatExport', () => {
  it('writes a CSV header, then one line per row across pages', async () => {
    const out = await text(
      formatExport(pagesOf([row('a@x.io'), row('b,c@x.io')], [row('d@x.io')]), 'csv'),
    )
    expect(out).toBe(
      'email,source,created_at\r\n' +
        'a@x.io,hero_section,2024-05-01T10:00:00+00:00\r\n' +
        '"b,c@x.io",hero_section,2024-05-01T10:00:00+00:00\r\n' +
        'd@x.io,hero_section,2024-05-01T10:00:00+00:00\r\n',
    )
  })

  it('writes a JSON array that parses back to the rows, empty or not', async () => {
    const rows = [row('a"b@x.io'), row('c@x.io'), row('d@x.io')]
    const out = await text(formatExport(pagesOf(rows.slice(0, 2), rows.slice(2)), 'json'))
    expect(JSON.parse(out)).toEqual(rows)
    expect(JSON.parse(await text(formatExport(pagesOf(), 'json')))).toEqual([])
    expect(await text(formatExport(pagesOf(), 'csv'))).toBe('email,source,created_at\r\n')
  })
})

describe('streaming', () => {
  it('reads the next page only once the output has taken the last one', async () => {
    const events: string[] = []
    const pageCount = 4
    const reader: WaitlistReader = {
      description: 'a test list',
      stats: () => Promise.reject(new Error('not asked')),
      count: async () => pageCount * 50,
      async *pages(pageSize) {
        for (let page = 0; page < pageCount; page++) {
          events.push(`read ${page}`)
          yield Array.from({ length: pageSize }, (_, i) => row(`p${page}-${i}@x.io`))
        }
      },
      close: async () => {},
    }
    // A pipe that takes one small write at a time: each page overfills it.
    const out = sink({
      highWaterMark: 1,
      onWrite: (chunk) => events.push(`wrote ${chunk.slice(0, 3)}`),
    })
    await writeExport(reader, 'csv', out.stream, 50)
    const reads = events.flatMap((event, i) => (event.startsWith('read') ? [i] : []))
    // Between two reads, the previous page has been written out.
    for (let page = 1; page < pageCount; page++) {
      const between = events.slice(reads[page - 1], reads[page])
      expect(between).toContain(`wrote p${page - 1}-`)
    }
    expect(out.text().split('\r\n').filter(Boolean)).toHaveLength(pageCount * 50 + 1)
  })

  it('exports 100,000 rows while holding no more than about one page in the output', async () => {
    const pageSize = 1000
    const pageCount = 100
    let largestBacklog = 0
    let lines = 0
    let lastLine = ''
    // A slow pipe, as to a file or a terminal: each write completes on a later turn.
    const out = new Writable({
      decodeStrings: false,
      write(chunk: string, _encoding, done) {
        const parts = chunk.split('\r\n')
        lines += parts.length - 1
        lastLine = parts.at(-2) ?? lastLine
        setImmediate(done)
      },
    })
    const reader: WaitlistReader = {
      description: 'a generated list',
      stats: () => Promise.reject(new Error('not asked')),
      count: async () => pageSize * pageCount,
      async *pages(size) {
        for (let page = 0; page < pageCount; page++) {
          // What is still waiting to be written when the next page is read.
          largestBacklog = Math.max(largestBacklog, out.writableLength)
          yield Array.from({ length: size }, (_, i) => row(`person${page * size + i + 1}@x.io`))
        }
      },
      close: async () => {},
    }
    await writeExport(reader, 'csv', out, pageSize)
    await new Promise((resolve) => out.end(resolve))
    expect(lines).toBe(pageSize * pageCount + 1)
    expect(lastLine).toBe('person100000@x.io,hero_section,2024-05-01T10:00:00+00:00')
    // Without backpressure the whole 5 MB list would pile up in the stream's buffer.
    expect(largestBacklog).toBeLessThanOrEqual(out.writableHighWaterMark)
  })
})
