// What each command does with the database it was given, and what it says.
import { SIGNING_SECRET_VAR } from '@/lib/env'
import type { Database } from './database'
import { countOf, EXIT, say, table, UsageError, type Io, type Row } from './io'
import * as files from './list-files'
import * as sql from './sql'

export async function count(db: Database, io: Io): Promise<number> {
  io.stdout.write(`${countOf(await sql.count(db), 'signup')} on ${db.name}\n`)
  return EXIT.done
}

export async function exportList(
  db: Database,
  io: Io,
  options: { format?: files.ListFormat; output?: string; withErasures?: boolean },
): Promise<number> {
  const marks = options.withErasures ? await sql.erasures(db) : undefined
  const signups = await sql.signups(db)
  const text = marks
    ? files.backupFile(signups, marks)
    : files.listFile(signups, options.format ?? 'csv')
  if (options.output) await files.writeNewFile(options.output, text)
  else io.stdout.write(text)
  const erased = marks ? ` and ${countOf(marks.marks.length, 'erasure mark')}` : ''
  const written = options.output ? `wrote ${options.output},` : 'exported'
  say(io, `${written} ${countOf(signups.length, 'signup')}${erased} from ${db.name}`)
  return EXIT.done
}

export async function stats(
  db: Database,
  io: Io,
  options: { days: number; format?: 'table' | 'json' },
): Promise<number> {
  const figures = await sql.stats(db, options.days)
  if (options.format === 'json') {
    io.stdout.write(JSON.stringify({ list: db.name, ...figures }, null, 2) + '\n')
    return EXIT.done
  }
  const bySource = Object.entries(figures.by_source).map(([source, n]): Row => [`  ${source}`, n])
  io.stdout.write(
    table([
      ['List', db.name],
      ['Signups', figures.total],
      ...bySource,
      ['Held back', `${figures.held_back} (erased on request, then signed up again)`],
      ['First signup', figures.first_signup_at ?? 'none yet'],
      ['Latest signup', figures.latest_signup_at ?? 'none yet'],
    ]),
  )
  const perDay = figures.days.map(({ day, signups }): Row => [`  ${day}`, signups])
  io.stdout.write(`\nSignups per day (UTC):\n${table(perDay)}`)
  return EXIT.done
}

/** Erases each address, remembering it as erased even where it was not listed. */
export async function remove(db: Database, io: Io, addresses: string[]): Promise<number> {
  const named = addresses.map((typed) => typed.trim().toLowerCase()).filter(Boolean)
  let removed = 0
  for (const address of named) {
    const listed = await sql.erase(db, address)
    if (listed) removed += 1
    const outcome = listed
      ? 'removed'
      : 'not on the list; recorded as erased so it is never added again'
    io.stdout.write(`${outcome}\t${address}\n`)
  }
  io.stdout.write(
    `removed ${removed} of ${named.length} from ${db.name}; each is remembered as erased there.\n`,
  )
  return EXIT.done
}

export async function importList(
  db: Database,
  io: Io,
  input: string,
  options: { restore: string[]; withErasures?: boolean },
): Promise<number> {
  const restore = options.restore.map((address) => address.trim().toLowerCase())
  const tally: sql.ImportTally = { inserted: 0, duplicates: 0, erased: 0, rejected: 0 }
  const reject = ({ line, reason }: files.Rejected) => {
    tally.rejected += 1
    say(io, `line ${line}: rejected, ${reason}`)
  }
  const backup = options.withErasures ? files.readBackup(input) : undefined
  const read = backup?.rows ?? files.readList(input)
  const rows = read.filter((row): row is files.ImportRow => 'email' in row)
  if (backup) {
    const added = await sql.restoreErasures(db, backup.erasures)
    if (added === null)
      throw new UsageError(
        `${db.name} has erasure marks of its own, under another key: --with-erasures restores into a fresh project, and changed nothing.`,
      )
    say(io, `${added} erasure marks taken from the backup.`)
  }
  // Only once the file is a list: one that is not changes nothing, not even what --restore names.
  const inFile = new Set(rows.map((row) => row.email))
  for (const address of restore.filter((address) => !inFile.has(address)))
    say(io, `warning: --restore ${address} is not in the file: nothing restored for it.`)
  const restored = restore.filter((address) => inFile.has(address))
  await sql.unerase(db, restored)
  for (const row of read) if (!('email' in row)) reject(row)
  for (let i = 0; i < rows.length; i += 500)
    await sql.insertBatch(db, rows.slice(i, i + 500), tally, reject)
  io.stdout.write(
    table([
      ['list', db.name],
      ['inserted', tally.inserted],
      ['skipped as duplicate', tally.duplicates],
      ['skipped as erased', tally.erased],
      ['rejected', tally.rejected],
    ]),
  )
  if (tally.erased)
    say(
      io,
      `${tally.erased} erased on request were not added back; name one with --restore ADDRESS to add it.`,
    )
  return tally.rejected > 0 ? EXIT.rejected : EXIT.done
}

function onSupabase(db: Database): void {
  if (db.kind !== 'supabase')
    throw new UsageError(
      'the embedded database makes and keeps its own signing secret: there is nothing to set.',
    )
}

export async function setSecret(db: Database, io: Io): Promise<number> {
  onSupabase(db)
  const secret = io.env[SIGNING_SECRET_VAR]?.trim() ?? ''
  if (secret.length < 32)
    throw new UsageError(
      `--set needs ${SIGNING_SECRET_VAR} set to the site's secret, at least 32 characters.`,
    )
  const changed = await sql.setSigningSecret(db, secret)
  say(
    io,
    changed
      ? 'the database now refuses any insert from the public key that the site did not sign with this secret (or the one it replaced, until --retire-previous).'
      : 'this secret is already set; nothing changed.',
  )
  return EXIT.done
}

export async function retireSecret(db: Database, io: Io, force = false): Promise<number> {
  onSupabase(db)
  const inUse = await sql.retirePreviousSigningSecret(db, force)
  if (inUse)
    throw new UsageError(
      `--retire-previous changed nothing: the previous secret ${inUse}, so a server not yet redeployed may still sign with it; retire it 10 minutes after both, or with --force.`,
    )
  say(io, 'the database now refuses inserts signed with any secret but the current one.')
  return EXIT.done
}
