import { WAITLIST_SOURCES } from '@/lib/site'
import { emailSchema, sourceSchema } from '@/lib/waitlist/schema'
import type { FileRecord } from './import-file'
import { RowRefusedError, type ImportRow, type WaitlistWriter } from './writer'

/** Rows sent to the store at a time: one request (or statement) each, whatever the file's length. */
export const IMPORT_BATCH_SIZE = 500

export type ImportTally = { inserted: number; duplicates: number; rejected: number }
export type Rejection = { line: number; reason: string }

type Checked = { line: number; row: ImportRow }

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(Z|[+-]\d{2}(?::?\d{2})?)$/i

/**
 * `created_at` as export writes it (ISO 8601 with a UTC offset; PostgreSQL's
 * own text, with a space and a short offset, is taken too), rewritten as
 * ISO 8601 that PostgreSQL reads exactly, microseconds kept. Undefined when
 * it is not a real time with an offset: a time without one would be read in
 * whatever zone the database runs in.
 */
export function normaliseTimestamp(text: string): string | undefined {
  const match = TIMESTAMP.exec(text.trim())
  if (!match) return undefined
  const [, y, mo, d, h, mi, s = '00', fraction = '', zone = ''] = match
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)))
  const real =
    day.getUTCFullYear() === Number(y) &&
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60
  if (!real) return undefined
  const digits = zone.replace(':', '')
  const offset =
    zone.toUpperCase() === 'Z' ? '+00:00' : `${digits.slice(0, 3)}:${digits.slice(3) || '00'}`
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}${offset}`
}

/** A record checked by the site's own schema: the address trimmed and lower-cased, the source one of the forms'. */
export function checkRecord(record: FileRecord): Checked | Rejection {
  const { line } = record
  if ('problem' in record) return { line, reason: record.problem }
  const { email, source, created_at: createdAt } = record.fields
  const address = emailSchema.safeParse(email)
  if (!address.success) {
    const given = typeof email === 'string' ? email.trim() : ''
    return { line, reason: given ? `not a valid e-mail address: ${given}` : 'no e-mail address' }
  }
  const form = sourceSchema.safeParse(source)
  if (!form.success) {
    const expected = `expected ${WAITLIST_SOURCES.join(' or ')}`
    return {
      line,
      reason:
        source === undefined || source === ''
          ? `no source (${expected})`
          : `unknown source ${JSON.stringify(source)} (${expected})`,
    }
  }
  const row: ImportRow = { email: address.data, source: form.data }
  if (createdAt !== undefined && createdAt !== null && createdAt !== '') {
    const at = typeof createdAt === 'string' ? normaliseTimestamp(createdAt) : undefined
    if (!at) {
      return {
        line,
        reason: `created_at is not a time with a UTC offset: ${JSON.stringify(createdAt)}`,
      }
    }
    row.created_at = at
  }
  return { line, row }
}

/**
 * Inserts a batch. When the table refuses a row, the whole statement is
 * refused, so the batch is halved until that row is alone, reported, and the
 * rest go in: a few more statements for each bad row, none for good batches.
 */
async function insertBatch(
  writer: WaitlistWriter,
  batch: Checked[],
  reject: (rejection: Rejection) => void,
): Promise<{ inserted: number; duplicates: number }> {
  try {
    const inserted = await writer.insert(batch.map((checked) => checked.row))
    return { inserted, duplicates: batch.length - inserted }
  } catch (error) {
    if (!(error instanceof RowRefusedError)) throw error
    if (batch.length === 1) {
      reject({ line: batch[0]!.line, reason: `refused by the table: ${error.message}` })
      return { inserted: 0, duplicates: 0 }
    }
    const half = Math.ceil(batch.length / 2)
    const first = await insertBatch(writer, batch.slice(0, half), reject)
    const second = await insertBatch(writer, batch.slice(half), reject)
    return {
      inserted: first.inserted + second.inserted,
      duplicates: first.duplicates + second.duplicates,
    }
  }
}

export type ImportOptions = {
  reject: (rejection: Rejection) => void
  batchSize?: number
  /** Counted into as the import goes, so a caller can say how far an import got before it failed. */
  tally?: ImportTally
}

/**
 * Loads the records into the store in batches, in file order: bad rows are
 * reported with their line and skipped, addresses already on the list (or
 * earlier in the file), whatever their case, are skipped and counted.
 */
export async function importList(
  records: AsyncIterable<FileRecord>,
  writer: WaitlistWriter,
  {
    reject,
    batchSize = IMPORT_BATCH_SIZE,
    tally = { inserted: 0, duplicates: 0, rejected: 0 },
  }: ImportOptions,
): Promise<ImportTally> {
  const refuse = (rejection: Rejection) => {
    tally.rejected += 1
    reject(rejection)
  }
  let batch: Checked[] = []
  // Duplicates within a batch are skipped here; across batches the store skips them.
  let inBatch = new Set<string>()
  const flush = async () => {
    const { inserted, duplicates } = await insertBatch(writer, batch, refuse)
    tally.inserted += inserted
    tally.duplicates += duplicates
    batch = []
    inBatch = new Set()
  }
  for await (const record of records) {
    const checked = checkRecord(record)
    if ('reason' in checked) {
      refuse(checked)
    } else if (inBatch.has(checked.row.email)) {
      tally.duplicates += 1
    } else {
      inBatch.add(checked.row.email)
      batch.push(checked)
      if (batch.length >= batchSize) await flush()
    }
  }
  if (batch.length > 0) await flush()
  return tally
}
