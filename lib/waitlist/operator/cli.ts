import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { ConfigError, type Env } from '@/lib/env'
import { maskEmails } from '@/lib/log'
import { parseCommand, UsageError, USAGE, type Command } from './args'
import { readOperatorStore, type OperatorStore } from './config'
import { embeddedReader } from './embedded-reader'
import { embeddedWriter } from './embedded-writer'
import { formatExport, type ExportFormat } from './format'
import { importList, type ImportTally } from './import'
import { ImportFileError, readListFile } from './import-file'
import { EXPORT_PAGE_SIZE, ReadError, type WaitlistReader } from './reader'
import { removeAddresses } from './remove'
import { formatStats } from './stats'
import { supabaseReader } from './supabase-reader'
import { supabaseWriter } from './supabase-writer'
import { WriteError, type WaitlistWriter } from './writer'

export { USAGE }

export type CliIo = {
  env: Env
  /** Where `-` reads from (remove's addresses, import's file). */
  stdin?: Readable
  stdout: Writable
  stderr: Writable
  /** Rows per page read; tests make it small to cross page boundaries. */
  pageSize?: number
  /** Rows per import batch; tests make it small to cross batch boundaries. */
  importBatchSize?: number
}

type Say = (text: string) => void
type Of<N extends Command['name']> = Extract<Command, { name: N }>

/** A file named on the command line that cannot be read. */
class InputError extends Error {}

function openReader(store: OperatorStore): Promise<WaitlistReader> {
  return store.kind === 'supabase'
    ? Promise.resolve(supabaseReader(store.url, store.serviceKey))
    : embeddedReader(store.dataDir)
}

function openWriter(store: OperatorStore, create: boolean): Promise<WaitlistWriter> {
  return store.kind === 'supabase'
    ? Promise.resolve(supabaseWriter(store.url, store.serviceKey))
    : embeddedWriter(store.dataDir, { create })
}

/** A file as text, or standard input for `-`; opened before any store, so a typo costs nothing. */
async function openInput(file: string, io: CliIo): Promise<Readable> {
  let input: Readable
  if (file === '-') {
    if (!io.stdin) throw new InputError('There is no standard input to read.')
    input = io.stdin
  } else {
    try {
      input = (await open(file)).createReadStream()
    } catch (error) {
      throw new InputError(`Cannot read ${file}: ${(error as Error).message}`)
    }
  }
  input.setEncoding('utf8')
  return input
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

async function exportTo(reader: WaitlistReader, command: Of<'export'>, io: CliIo): Promise<void> {
  if (!command.output) return writeExport(reader, command.format, io.stdout, io.pageSize)
  // `wx`: never overwrite an earlier export by mistake.
  const file = createWriteStream(command.output, { flags: 'wx' })
  await once(file, 'open')
  try {
    await writeExport(reader, command.format, file, io.pageSize)
  } finally {
    await new Promise<void>((resolve, reject) =>
      file.end((error?: Error | null) => (error ? reject(error) : resolve())),
    )
  }
}

async function read(
  command: Of<'count'> | Of<'export'> | Of<'stats'>,
  store: OperatorStore,
  io: CliIo,
  say: Say,
): Promise<number> {
  const reader = await openReader(store)
  try {
    say(`Reading the waitlist from ${reader.description}.`)
    if (command.name === 'count') {
      io.stdout.write(`${await reader.count()}\n`)
    } else if (command.name === 'stats') {
      io.stdout.write(formatStats(await reader.stats(command.days), command.format))
    } else {
      await exportTo(reader, command, io)
      if (command.output) say(`Wrote ${command.output}.`)
    }
    return 0
  } finally {
    await reader.close()
  }
}

async function* addressesOf(command: Of<'remove'>, inputs: Readable[]): AsyncGenerator<string> {
  yield* command.addresses
  for (const input of inputs) {
    let first = true
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      yield first ? line.replace(/^\uFEFF/, '') : line
      first = false
    }
  }
}

async function remove(
  command: Of<'remove'>,
  store: OperatorStore,
  io: CliIo,
  say: Say,
): Promise<number> {
  const inputs = await Promise.all(command.sources.map((source) => openInput(source, io)))
  const writer = await openWriter(store, false)
  try {
    say(
      `${command.dryRun ? 'Looking addresses up in' : 'Removing addresses from'} ${writer.description}.`,
    )
    const { handled, removed } = await removeAddresses(addressesOf(command, inputs), writer, {
      dryRun: command.dryRun,
      report: (email, status) => io.stdout.write(`${status.padEnd(16)}  ${email}\n`),
    })
    const absent = `${handled - removed} ${handled - removed === 1 ? 'was' : 'were'} not on the list`
    say(
      command.dryRun
        ? `${removed} of ${handled} on the list; nothing was removed (--dry-run).`
        : `Removed ${removed} of ${handled}; ${absent}.`,
    )
    return 0
  } finally {
    await writer.close()
  }
}

function tallyText(tally: ImportTally): string {
  return (
    `inserted              ${tally.inserted}\n` +
    `skipped as duplicate  ${tally.duplicates}\n` +
    `rejected              ${tally.rejected}\n`
  )
}

async function importFile(
  command: Of<'import'>,
  store: OperatorStore,
  io: CliIo,
  say: Say,
): Promise<number> {
  const input = await openInput(command.file, io)
  const tally: ImportTally = { inserted: 0, duplicates: 0, rejected: 0 }
  let writer: WaitlistWriter | undefined
  try {
    writer = await openWriter(store, true)
    say(
      `Importing ${command.file === '-' ? 'standard input' : command.file} into ${writer.description}.`,
    )
    await importList(readListFile(input, command.format), writer, {
      reject: ({ line, reason }) => say(`line ${line}: rejected, ${reason}`),
      batchSize: io.importBatchSize,
      tally,
    })
    io.stdout.write(tallyText(tally))
    return tally.rejected > 0 ? 3 : 0
  } catch (error) {
    if (writer && tally.inserted + tally.duplicates + tally.rejected > 0) {
      say(
        `Stopped part way, after:\n${tallyText(tally)}Running the same import again is safe: ` +
          `the rows already added are skipped as duplicates.`,
      )
    }
    throw error
  } finally {
    await writer?.close()
    input.destroy()
  }
}

/** Runs one operator command; resolves to the process's exit code. */
export async function runWaitlistCli(argv: string[], io: CliIo): Promise<number> {
  // What goes to stderr is a log line: addresses in it are masked. stdout carries the data asked for.
  const say: Say = (text) => io.stderr.write(maskEmails(text.endsWith('\n') ? text : `${text}\n`))
  let command: Command
  try {
    command = parseCommand(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    say(`${error.message}\n\n${USAGE}`)
    return 2
  }
  if (command.name === 'help') {
    io.stdout.write(USAGE)
    return 0
  }
  try {
    const store = readOperatorStore(io.env)
    switch (command.name) {
      case 'remove':
        return await remove(command, store, io, say)
      case 'import':
        return await importFile(command, store, io, say)
      default:
        return await read(command, store, io, say)
    }
  } catch (error) {
    const known = [ConfigError, ReadError, WriteError, ImportFileError, InputError]
    if (known.some((kind) => error instanceof kind)) {
      say(`waitlist: ${(error as Error).message}`)
      return 1
    }
    throw error
  }
}
