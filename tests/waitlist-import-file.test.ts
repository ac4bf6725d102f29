import { describe, expect, it } from 'vitest'
import { Writable } from 'node:stream'
import { formatExport, guardCsvField, unguardCsvField } from '@/lib/waitlist/operator/format'
import { checkRecord, importList, normaliseTimestamp } from '@/lib/waitlist/operator/import'
import { ImportFileError, readListFile, type FileRecord } from '@/lib/waitlist/operator/import-file'
import {
  RowRefusedError,
  type ImportRow,
  type WaitlistWriter,
} from '@/lib/waitlist/operator/writer'

/** Reading a list file as it streams in, and loading it in batches, without a store. */
async function* chunked(text: string, size: number) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size)
}

async function records(text: string, size = text.length || 1): Promise<FileRecord[]> {
  const out: FileRecord[] = []
  for await (const record of readListFile(chunked(text, size))) out.push(record)
  return out
}

/** The same text read whole, and one character at a time: chunk boundaries must not matter. */
async function bothWays(text: string): Promise<FileRecord[]> {
  const whole = await records(text)
  expect(await records(text, 1)).toEqual(whole)
  return whole
}

describe('reading CSV', () => {
  it('reads the export’s own format: header, quoting, formula guards, CRLF, a BOM', async () => {
    const text =
      '\uFEFFemail,source,created_at\r\n' +
      'anna@example.com,hero_section,2024-05-01T10:00:00+00:00\r\n' +
      `"'-dash@example.com",cta_section,2024-05-02T08:30:00+00:00\r\n` +
      `"'+plus@example.com",cta_section,\r\n` +
      '"o""neil,jr@example.com",hero_section,\r\n'
    expect(await bothWays(text)).toEqual([
      {
        line: 2,
        fields: {
          email: 'anna@example.com',
          source: 'hero_section',
          created_at: '2024-05-01T10:00:00+00:00',
        },
      },
      {
        line: 3,
        fields: {
          email: '-dash@example.com',
          source: 'cta_section',
          created_at: '2024-05-02T08:30:00+00:00',
        },
      },
      { line: 4, fields: { email: '+plus@example.com', source: 'cta_section', created_at: '' } },
      {
        line: 5,
        fields: { email: 'o"neil,jr@example.com', source: 'hero_section', created_at: '' },
      },
    ])
  })

  it('numbers lines as a text editor does: LF, CR, blank lines and breaks inside quotes', async () => {
    const text =
      'Email , SOURCE\n\na@x.io,hero_section\r"b\nc@x.io",cta_section\nd@x.io,cta_section'
    const read = await bothWays(text)
    expect(read.map((record) => record.line)).toEqual([3, 4, 6])
    expect(read[1]).toEqual({ line: 4, fields: { email: 'b\nc@x.io', source: 'cta_section' } })
  })

  it('gives a short row the fields it has, and a cut-off quote a problem at its line', async () => {
    expect(await bothWays('email,source\na@x.io\n"b@x.io,cta_section\n')).toEqual([
      { line: 2, fields: { email: 'a@x.io', source: undefined } },
      { line: 3, problem: 'a quoted field is never closed (the file may be cut short)' },
    ])
  })

  it('reads a header alone as an empty list', async () => {
    expect(await bothWays('email,source,created_at\r\n')).toEqual([])
  })

  it('refuses a file whose first line does not name email and source', async () => {
    await expect(records('address,form\na@x.io,hero_section\n')).rejects.toThrow(
      /line 1: the first line must name the columns, email and source among them/,
    )
    await expect(records('')).rejects.toThrow('The file is empty.')
    await expect(records('\uFEFF \r\n')).rejects.toThrow('The file is empty.')
  })
})

describe('reading CSV that breaks the rules', () => {
  it('takes stray quotes as part of their field, for the address check to refuse', async () => {
    expect(
      await bothWays(
        'email,source\na"b@x.io,hero_section\n"c"d@x.io,cta_section\ne@x.io,cta_section\n',
      ),
    ).toEqual([
      { line: 2, fields: { email: 'a"b@x.io', source: 'hero_section' } },
      { line: 3, fields: { email: '"c"d@x.io', source: 'cta_section' } },
      { line: 4, fields: { email: 'e@x.io', source: 'cta_section' } },
    ])
  })

  it('gives every row before a row longer than 64 KB, then stops there, naming its line', async () => {
    // An opening quote never closed swallows the rest of the file into one field.
    const text = `email,source\na@x.io,hero_section\n"b\nc@x.io",cta_section\n"${'x@x.io,hero_section\n'.repeat(5000)}`
    for (const size of [text.length, 4096]) {
      const read: FileRecord[] = []
      const all = async () => {
        for await (const record of readListFile(chunked(text, size))) read.push(record)
      }
      await expect(all()).rejects.toThrow(
        new ImportFileError(
          'line 5: a row longer than 64 KB is not a signup (a quote that is never closed?); nothing after it was read.',
        ),
      )
      expect(read.map((record) => record.line)).toEqual([2, 3])
    }
  })

  it('says a file that cannot be read is one, whatever the read failed on', async () => {
    async function* failing() {
      yield 'email,source\na@x.io,hero_section\n'
      throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })
    }
    for (const text of [failing()]) {
      await expect(
        (async () => {
          for await (const record of readListFile(text)) void record
        })(),
      ).rejects.toThrow(new ImportFileError('The file could not be read: EIO: i/o error, read'))
    }
  })

  it('reads a long file as it streams: the parser runs only a few chunks ahead of the reader', async () => {
    const rows = 200_000
    const line = (i: number) => `person${i}@example.com,hero_section,2024-05-01T10:00:00+00:00\r\n`
    let produced = 0
    let consumed = 0
    let widest = 0
    async function* file() {
      yield 'email,source,created_at\r\n'
      for (let i = 0; i < rows; i += 1000) {
        const chunk = Array.from({ length: 1000 }, (_, j) => line(i + j)).join('')
        produced += chunk.length
        yield chunk
      }
    }
    let last: FileRecord | undefined
    for await (const record of readListFile(file())) {
      consumed += line(record.line - 2).length
      widest = Math.max(widest, produced - consumed)
      last = record
    }
    expect(last).toMatchObject({
      line: rows + 1,
      fields: { email: `person${rows - 1}@example.com` },
    })
    // A few chunks and the streams' buffers (well under 1 MB); the file is 12 MB.
    expect(produced).toBeGreaterThan(12_000_000)
    expect(widest).toBeLessThan(1_000_000)
  })
})

describe('reading JSON', () => {
  it('reads the export’s own format, one entry a line, with the line each starts on', async () => {
    const text =
      '[\n{"email":"a@x.io","source":"hero_section","created_at":"2024-05-01T10:00:00+00:00"},\n' +
      '{"email":"b@x.io","source":"cta_section","created_at":"2024-05-01T10:00:01+00:00"}\n]\n'
    expect(await bothWays(text)).toEqual([
      {
        line: 2,
        fields: {
          email: 'a@x.io',
          source: 'hero_section',
          created_at: '2024-05-01T10:00:00+00:00',
        },
      },
      {
        line: 3,
        fields: { email: 'b@x.io', source: 'cta_section', created_at: '2024-05-01T10:00:01+00:00' },
      },
    ])
  })

  it('reads any layout, strings holding brackets and commas, and says which entries are not objects', async () => {
    const text =
      '\uFEFF  [ {"email": "a],{\\"x@x.io", "source": "hero_section", "tags": [1, {"n": [2]}]},\r\n' +
      '  "b@x.io", null, [1] ,\n\n {"email":"c@x.io","source":"cta_section"} ] \n'
    expect(await bothWays(text)).toEqual([
      {
        line: 1,
        fields: { email: 'a],{"x@x.io', source: 'hero_section', tags: [1, { n: [2] }] },
      },
      { line: 2, problem: 'not an object with email and source' },
      { line: 2, problem: 'not an object with email and source' },
      { line: 2, problem: 'not an object with email and source' },
      { line: 4, fields: { email: 'c@x.io', source: 'cta_section' } },
    ])
    expect(await bothWays('[]')).toEqual([])
  })

  it('refuses what is not one JSON array, naming the line', async () => {
    await expect(records('{"email":"a@x.io"}')).rejects.toThrow(
      /line 1: a JSON list starts with \[/,
    )
    await expect(records('[\n{"email":"a@x.io",}\n]')).rejects.toThrow(
      /line 2: this entry is not valid JSON/,
    )
    await expect(records('[{"email":"a@x.io"}')).rejects.toThrow(/ends before its list is closed/)
    await expect(records('[]\nx')).rejects.toThrow(/line 2: there is text after the list/)
    await expect(records(`[${'"x'.padEnd(70_000, 'x')}"]`)).rejects.toThrow(/longer than 64 KB/)
  })
})

describe('the formula guard', () => {
  it.each([
    'anna@example.com',
    '-dash@example.com',
    '+plus@example.com',
    '=sum@example.com',
    '@at@example.com',
    "'quote@example.com",
    "''two@example.com",
    "'-both@example.com",
  ])('comes off %j exactly as export put it on', (value) => {
    expect(unguardCsvField(guardCsvField(value))).toBe(value)
  })

  it('gives back what export wrote, field for field, through real CSV text', async () => {
    const rows = [
      'anna@example.com',
      '-dash@example.com',
      '=sum@example.com',
      "'quote@example.com",
      "''two@example.com",
      'o"neil,jr@example.com',
      'line\nbreak@example.com',
    ].map((email) => ({ email, source: 'cta_section', created_at: '2024-05-01T10:00:00+00:00' }))
    let text = ''
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString()
        done()
      },
    })
    await formatExport(
      (async function* () {
        yield rows
      })(),
      'csv',
      out,
    )
    const read = await bothWays(text)
    expect(read.map((record) => ('fields' in record ? record.fields : record))).toEqual(rows)
  })
})

describe('checking a row', () => {
  it.each([
    ['2024-05-01T10:00:00+00:00', '2024-05-01T10:00:00+00:00'],
    ['2024-05-01T10:00:02.5+00:00', '2024-05-01T10:00:02.5+00:00'],
    ['2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00.123456+00:00'],
    ['2024-05-01 10:00:00+02', '2024-05-01T10:00:00+02:00'],
    ['2024-05-01T10:00-0530', '2024-05-01T10:00:00-05:30'],
  ])('takes the time %j as %j', (given, expected) => {
    expect(normaliseTimestamp(given)).toBe(expected)
  })

  it.each([
    '2024-05-01T10:00:00',
    '2024-02-30T10:00:00Z',
    '2024-05-01T24:00:00Z',
    'yesterday',
    '1714557600',
  ])('refuses the time %j (no offset, or no such time)', (given) => {
    expect(normaliseTimestamp(given)).toBeUndefined()
  })

  it('applies the site’s schema: trimmed, lower-cased, a known source', () => {
    const fields = { email: ' Anna@Example.COM ', source: 'cta_section', created_at: '' }
    expect(checkRecord({ line: 7, fields })).toEqual({
      line: 7,
      row: { email: 'anna@example.com', source: 'cta_section' },
    })
    expect(checkRecord({ line: 8, fields: { ...fields, email: 'anna@localhost' } })).toEqual({
      line: 8,
      reason: 'not a valid e-mail address: anna@localhost',
    })
    expect(checkRecord({ line: 9, fields: { ...fields, source: 'footer' } })).toEqual({
      line: 9,
      reason: 'unknown source "footer" (expected hero_section or cta_section)',
    })
    expect(checkRecord({ line: 10, fields: { ...fields, created_at: 5 } })).toMatchObject({
      line: 10,
      reason: 'created_at is not a time with a UTC offset: 5',
    })
  })
})

/** A store in memory that refuses rows whose address starts with "refuse", as a CHECK would. */
function memoryWriter(onInsert: (rows: ImportRow[]) => void = () => {}) {
  const stored = new Set<string>()
  const writer: WaitlistWriter = {
    description: 'memory',
    remove: async (email) => stored.delete(email),
    async insert(rows) {
      onInsert(rows)
      if (rows.some((row) => row.email.startsWith('refuse'))) {
        throw new RowRefusedError('new row violates check constraint "waitlist_email_format"')
      }
      const before = stored.size
      for (const row of rows) stored.add(row.email)
      return stored.size - before
    },
    close: async () => {},
  }
  return { writer, stored }
}

describe('loading a list', () => {
  it('skips duplicates in any case, within a batch, across batches and already stored', async () => {
    const { writer, stored } = memoryWriter()
    stored.add('old@x.io')
    const file =
      'email,source\na@x.io,hero_section\nA@X.io,cta_section\nb@x.io,hero_section\na@x.io,hero_section\nOLD@x.io,hero_section\n'
    const rejected: unknown[] = []
    const tally = await importList(readListFile(chunked(file, 7)), writer, {
      reject: (r) => rejected.push(r),
      batchSize: 2,
    })
    expect(tally).toEqual({ inserted: 2, duplicates: 3, rejected: 0 })
    expect([...stored]).toEqual(['old@x.io', 'a@x.io', 'b@x.io'])
    expect(rejected).toEqual([])
  })

  it('finds a row the table refuses inside a batch, reports its line, and keeps the rest', async () => {
    const batches: number[] = []
    const { writer, stored } = memoryWriter((rows) => batches.push(rows.length))
    const lines = [
      'email,source',
      ...Array.from({ length: 8 }, (_, i) => `${i === 5 ? 'refuse' : 'p'}${i}@x.io,hero_section`),
    ]
    const rejected: { line: number; reason: string }[] = []
    const tally = await importList(readListFile(chunked(lines.join('\n'), 64)), writer, {
      reject: (r) => rejected.push(r),
      batchSize: 8,
    })
    expect(tally).toEqual({ inserted: 7, duplicates: 0, rejected: 1 })
    expect(rejected).toEqual([
      {
        line: 7,
        reason: 'refused by the table: new row violates check constraint "waitlist_email_format"',
      },
    ])
    expect(stored.size).toBe(7)
    // The whole batch, then halves down to the bad row: a few statements more, not one per row.
    expect(batches).toEqual([8, 4, 4, 2, 1, 1, 2])
  })

  it('streams: no more than one batch is read ahead of what the store has taken', async () => {
    const total = 20_000
    const batchSize = 500
    let produced = 0
    let taken = 0
    let widest = 0
    async function* generated(): AsyncGenerator<FileRecord> {
      for (let i = 0; i < total; i++) {
        produced += 1
        yield { line: i + 2, fields: { email: `p${i}@x.io`, source: 'hero_section' } }
      }
    }
    const { writer } = memoryWriter((rows) => {
      widest = Math.max(widest, produced - taken)
      taken += rows.length
    })
    const tally = await importList(generated(), writer, { reject: () => {}, batchSize })
    expect(tally.inserted).toBe(total)
    expect(widest).toBe(batchSize)
  })
})
