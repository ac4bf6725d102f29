import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import type { Writable } from 'node:stream'
import { ConfigError, type Env } from '@/lib/env'
import { readOperatorStore, type OperatorStore } from './config'
import { embeddedReader } from './embedded-reader'
import { EXPORT_FORMATS, formatExport, type ExportFormat } from './format'
import { EXPORT_PAGE_SIZE, ReadError, type WaitlistReader } from './reader'
import { supabaseReader } from './supabase-reader'

export const USAGE = `Usage:
  npm run waitlist -- count
  npm run waitlist -- export [--format csv|json] [--output FILE]

Reads the configured store: Supabase when a Supabase URL is set (with
SUPABASE_SERVICE_ROLE_KEY or SUPABASE_SECRET_KEY), else the embedded database
in WAITLIST_DATA_DIR (default .data/waitlist). The export goes to stdout
unless --output names a file.
`

export type CliIo = {
  env: Env
  stdout: Writable
  stderr: Writable
  /** Rows per page read; tests make it small to cross page boundaries. */
  pageSize?: number
}

type Command =
  { name: 'help' } | { name: 'count' } | { name: 'export'; format: ExportFormat; output?: string }

class UsageError extends Error {}

function parse(argv: string[]): Command {
  const [name, ...rest] = argv
  if (!name || name === 'help' || name === '--help' || name === '-h') return { name: 'help' }
  if (name === 'count' && rest.length === 0) return { name }
  if (name !== 'export') throw new UsageError(`Unknown command or option: ${argv.join(' ')}`)
  let format: ExportFormat = 'csv'
  let output: string | undefined
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i]!.split(/=(.*)/s, 2)
    const value = inline ?? rest[++i]
    if (flag === '--format' && EXPORT_FORMATS.includes(value as ExportFormat)) {
      format = value as ExportFormat
    } else if ((flag === '--output' || flag === '-o') && value) {
      output = value
    } else {
      throw new UsageError(`Unknown or incomplete option: ${rest.slice(i - 1).join(' ')}`)
    }
  }
  return { name, format, output }
}

function openReader(store: OperatorStore): Promise<WaitlistReader> {
  return store.kind === 'supabase'
    ? Promise.resolve(supabaseReader(store.url, store.serviceKey))
    : embeddedReader(store.dataDir)
}

/**
 * The list, formatted, into `out`: one page is read, written, and the next is
 * read only when `out` has room again (backpressure), so memory holds about
 * one page however long the list is.
 */
export async function writeExport(
  reader: WaitlistReader,
  format: ExportFormat,
  out: Writable,
  pageSize = EXPORT_PAGE_SIZE,
): Promise<void> {
  for await (const chunk of formatExport(reader.pages(pageSize), format)) {
    if (!out.write(chunk)) await once(out, 'drain')
  }
}

async function exportTo(
  reader: WaitlistReader,
  format: ExportFormat,
  io: CliIo,
  output?: string,
): Promise<void> {
  if (!output) return writeExport(reader, format, io.stdout, io.pageSize)
  // `wx`: never overwrite an earlier export by mistake.
  const file = createWriteStream(output, { flags: 'wx' })
  await once(file, 'open')
  try {
    await writeExport(reader, format, file, io.pageSize)
  } finally {
    await new Promise<void>((resolve, reject) =>
      file.end((error?: Error | null) => (error ? reject(error) : resolve())),
    )
  }
}

/** Runs one operator command; resolves to the process's exit code. */
export async function runWaitlistCli(argv: string[], io: CliIo): Promise<number> {
  const say = (text: string) => io.stderr.write(text.endsWith('\n') ? text : `${text}\n`)
  let command: Command
  try {
    command = parse(argv)
  } catch (error) {
    say(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  if (command.name === 'help') {
    io.stdout.write(USAGE)
    return 0
  }
  let reader: WaitlistReader | undefined
  try {
    reader = await openReader(readOperatorStore(io.env))
    say(`Reading the waitlist from ${reader.description}.`)
    if (command.name === 'count') {
      io.stdout.write(`${await reader.count()}\n`)
    } else {
      await exportTo(reader, command.format, io, command.output)
      if (command.output) say(`Wrote ${command.output}.`)
    }
    return 0
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ReadError) {
      say(`waitlist: ${error.message}`)
      return 1
    }
    throw error
  } finally {
    await reader?.close()
  }
}
