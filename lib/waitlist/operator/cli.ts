import { open, rm, stat, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { ConfigError, readOperatorStore, type Env, type OperatorStore } from '@/lib/env'
import { maskEmails } from '@/lib/log'
import { isMigrationError, readMigrations } from '@/lib/waitlist/migrations'
import { parseCommand, UsageError, USAGE, type Command } from './args'
import { judgeSchema, MIGRATIONS_DIR } from './check'
import { embeddedReader } from './embedded-reader'
import { embeddedSchemaState } from './embedded-schema'
import { embeddedWriter } from './embedded-writer'
import { formatExport, type ExportFormat } from './format'
import { importList, type ImportTally } from './import'
import { ImportFileError, readListFile } from './import-file'
import { EXPORT_PAGE_SIZE, ReadError, type WaitlistReader } from './reader'
import { removeAddresses } from './remove'
import { formatStats } from './stats'
import { supabaseReader } from './supabase-reader'
import { supabaseSchemaState } from './supabase-schema'
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

/** A file named on the command line that cannot be read, or made: a mistake on the command line. */
class FileArgumentError extends Error {}

/** Writing the export failed part way: a full disk, a closed pipe. */
class OutputError extends Error {}

export const EXIT = { done: 0, failed: 1, usage: 2, rowsRejected: 3 } as const

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

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException).code

/** A file as text, or standard input for `-`; opened before any store, so a typo costs nothing. */
async function openInput(file: string, io: CliIo): Promise<Readable> {
  if (file === '-') {
    if (!io.stdin) throw new FileArgumentError('There is no standard input to read.')
    io.stdin.setEncoding('utf8')
    return io.stdin
  }
  let handle: FileHandle
  try {
    if ((await stat(file)).isDirectory())
      throw new FileArgumentError(`${file} is a folder, not a file.`)
    handle = await open(file)
  } catch (error) {
    if (error instanceof FileArgumentError) throw error
    const code = errnoOf(error)
    throw new FileArgumentError(
      code === 'ENOENT' || code === 'ENOTDIR'
        ? `${file} does not exist.`
        : `Cannot read ${file}: ${(error as Error).message}`,
    )
  }
  return handle.createReadStream({ encoding: 'utf8' })
}

/**
 * The export's file, made before the list is read, so a name that cannot be
 * used costs nothing: `wx` never writes over an earlier export.
 */
async function openOutput(file: string): Promise<FileHandle> {
  try {
    return await open(file, 'wx')
  } catch (error) {
    const code = errnoOf(error)
    const folder = path.dirname(file)
    const isFolder = await stat(file).then(
      (found) => found.isDirectory(),
      () => false,
    )
    throw new FileArgumentError(
      isFolder
        ? `${file} is a folder: name a file in it, such as ${path.join(file, 'waitlist.csv')}.`
        : code === 'EEXIST'
          ? `${file} already exists, and export never writes over a file: name a new one.`
          : code === 'ENOENT' || code === 'ENOTDIR'
            ? `There is no folder ${folder} to write ${path.basename(file)} in: make it first, or name another.`
            : `Cannot make ${file}: ${(error as Error).message}`,
    )
  }
}

/**
 * The list, formatted, into `out`: a page is read only once `out` has taken
 * the last (backpressure), so memory stays flat however long the list is.
 */
export async function writeExport(
  reader: WaitlistReader,
  format: ExportFormat,
  out: Writable,
  pageSize = EXPORT_PAGE_SIZE,
): Promise<void> {
  try {
    await formatExport(reader.pages(pageSize), format, out)
  } catch (error) {
    // A system call that failed is the output's; anything else (the store) says itself.
    if (errnoOf(error) && (error as NodeJS.ErrnoException).syscall) {
      throw new OutputError(`Could not write the export: ${(error as Error).message}`, {
        cause: error,
      })
    }
    throw error
  }
}

async function exportTo(
  reader: WaitlistReader,
  command: Of<'export'>,
  output: FileHandle | undefined,
  io: CliIo,
): Promise<void> {
  if (!output) return writeExport(reader, command.format, io.stdout, io.pageSize)
  const file = output.createWriteStream()
  await writeExport(reader, command.format, file, io.pageSize)
  await new Promise<void>((resolve, reject) =>
    file.end((error?: Error | null) => (error ? reject(error) : resolve())),
  )
}

async function read(
  command: Of<'count'> | Of<'export'> | Of<'stats'>,
  store: OperatorStore,
  io: CliIo,
  say: Say,
): Promise<number> {
  const outputPath = command.name === 'export' ? command.output : undefined
  const output = outputPath ? await openOutput(outputPath) : undefined
  let written = false
  try {
    const reader = await openReader(store)
    try {
      say(`Reading the waitlist from ${reader.description}.`)
      if (command.name === 'count') {
        io.stdout.write(`${await reader.count()}\n`)
      } else if (command.name === 'stats') {
        io.stdout.write(formatStats(await reader.stats(command.days), command.format))
      } else {
        await exportTo(reader, command, output, io)
        if (command.output) say(`Wrote ${command.output}.`)
      }
      written = true
      return EXIT.done
    } finally {
      await reader.close()
    }
  } finally {
    // A file cut short looks like a whole backup: only a finished export is kept.
    if (outputPath && output && !written) {
      await output.close().catch(() => {})
      await rm(outputPath, { force: true })
    }
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
  // A dry run changes nothing, so it reads a copy like count does, and a running server is no obstacle.
  const target = command.dryRun ? await openReader(store) : await openWriter(store, false)
  try {
    say(
      `${command.dryRun ? 'Looking addresses up in' : 'Removing addresses from'} ${target.description}.`,
    )
    const { handled, removed } = await removeAddresses(addressesOf(command, inputs), {
      act: (email) => ('remove' in target ? target.remove(email) : target.has(email)),
      dryRun: command.dryRun,
      report: (email, status) => io.stdout.write(`${status.padEnd(16)}  ${email}\n`),
    })
    const absent = `${handled - removed} ${handled - removed === 1 ? 'was' : 'were'} not on the list`
    say(
      command.dryRun
        ? `${removed} of ${handled} on the list; nothing was removed (--dry-run).`
        : `Removed ${removed} of ${handled}; ${absent}.`,
    )
    return EXIT.done
  } finally {
    await target.close()
    for (const input of inputs) input.destroy()
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
    return tally.rejected > 0 ? EXIT.rowsRejected : EXIT.done
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

/**
 * Whether the store's schema is what this code's migrations make it. Read
 * only: the report goes to stdout, or what is missing in one line to stderr.
 */
async function check(store: OperatorStore, io: CliIo, say: Say): Promise<number> {
  const files = await readMigrations(MIGRATIONS_DIR)
  const state =
    store.kind === 'supabase'
      ? await supabaseSchemaState(store.url, store.serviceKey)
      : await embeddedSchemaState(store.dataDir)
  const verdict = judgeSchema(state, files)
  if (!verdict.ok) {
    say(`waitlist: ${verdict.problem}`)
    return EXIT.failed
  }
  io.stdout.write(verdict.report)
  return EXIT.done
}

/** Runs one operator command; resolves to the process's exit code ({@link EXIT}). */
export async function runWaitlistCli(argv: string[], io: CliIo): Promise<number> {
  // What goes to stderr is a log line: addresses in it are masked. stdout carries the data asked for.
  const say: Say = (text) => io.stderr.write(maskEmails(text.endsWith('\n') ? text : `${text}\n`))
  let command: Command
  try {
    command = parseCommand(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    say(`waitlist: ${error.message} (npm run waitlist -- help lists the commands and options)`)
    return EXIT.usage
  }
  if (command.name === 'help') {
    io.stdout.write(USAGE)
    return EXIT.done
  }
  try {
    const store = readOperatorStore(io.env)
    switch (command.name) {
      case 'remove':
        return await remove(command, store, io, say)
      case 'import':
        return await importFile(command, store, io, say)
      case 'check':
        return await check(store, io, say)
      default:
        return await read(command, store, io, say)
    }
  } catch (error) {
    if (error instanceof FileArgumentError) {
      say(`waitlist: ${error.message}`)
      return EXIT.usage
    }
    const known = [ConfigError, ReadError, WriteError, ImportFileError, OutputError]
    if (known.some((kind) => error instanceof kind) || isMigrationError(error)) {
      say(`waitlist: ${(error as Error).message}`)
      return EXIT.failed
    }
    throw error
  }
}
