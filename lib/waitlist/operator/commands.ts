// What each command does with the database it was given, and what it says.
import type { Writable } from 'node:stream'
import { SIGNING_SECRET_VAR, type Env } from '@/lib/env'
import type { Values } from './arguments'
import { check } from './check'
import * as sql from './sql'
import type { Database } from './database'
import { UsageError, type SiteList } from './lists'
import * as files from './list-files'
import { signups, table, type Row } from './table'

/** `input`: what import or `remove -` reads; `say`: a line on stderr. */
export type Io = {
  env: Env
  stdout: Writable
  input?: string
  site: SiteList
  say: (text: string) => void
}

export async function runCommand(
  name: string,
  values: Values,
  positionals: string[],
  db: Database,
  io: Io,
): Promise<number> {
  const { say } = io
  switch (name) {
    case 'count':
      io.stdout.write(`${signups(await sql.count(db))} on ${db.list}\n`)
      return 0
    case 'export': {
      const marks = values['with-erasures'] ? await sql.erasures(db) : undefined
      const rows = await sql.list(db)
      const text = marks
        ? files.backupFile(rows, marks)
        : files.listFile(rows, (values.format as files.ListFormat | undefined) ?? 'csv')
      const file = values.output === '-' ? undefined : (values.output as string | undefined)
      if (file) await files.writeNewFile(file, text)
      else io.stdout.write(text)
      const erased = marks ? ` and ${marks.marks.length} erasure marks` : ''
      say(
        `waitlist: ${file ? `wrote ${file}, ` : 'exported '}${signups(rows.length)}${erased} from ${db.list}`,
      )
      return 0
    }
    case 'stats': {
      const figures = await sql.stats(db, Number(values.days ?? 14))
      if (values.format === 'json') {
        io.stdout.write(JSON.stringify({ list: db.list, ...figures }, null, 2) + '\n')
        return 0
      }
      io.stdout.write(
        table([
          ['List', db.list],
          ['Signups', figures.total],
          ...Object.entries(figures.by_source).map(([source, n]): Row => [`  ${source}`, n]),
          ['Held back', `${figures.held_back} (erased on request, then signed up again)`],
          ['First signup', figures.first_signup_at ?? 'none yet'],
          ['Latest signup', figures.latest_signup_at ?? 'none yet'],
        ]),
      )
      const perDay = figures.days.map(({ day, signups }): Row => [`  ${day}`, signups])
      io.stdout.write(`\nSignups per day (UTC):\n${table(perDay)}`)
      return 0
    }
    case 'remove': {
      let handled = 0
      let removed = 0
      const named = positionals.filter((arg) => arg !== '-')
      for (const raw of [...named, ...(io.input?.split('\n') ?? [])]) {
        const address = raw.trim().toLowerCase()
        if (!address) continue
        const listed = await sql.erase(db, address)
        handled += 1
        removed += Number(listed)
        const outcome = listed
          ? 'removed'
          : 'not on the list; recorded as erased so it is never added again'
        io.stdout.write(`${outcome}\t${address}\n`)
      }
      io.stdout.write(
        `removed ${removed} of ${handled} from ${db.list}; each is remembered as erased there.\n`,
      )
      return 0
    }
    case 'import': {
      const restore = ((values.restore as string[] | undefined) ?? []).map((address) =>
        address.trim().toLowerCase(),
      )
      const tally: sql.ImportTally = { inserted: 0, duplicates: 0, erased: 0, rejected: 0 }
      const reject = ({ line, reason }: files.Rejected) => {
        tally.rejected += 1
        say(`line ${line}: rejected, ${reason}`)
      }
      const backup = values['with-erasures'] ? files.readBackup(io.input!) : undefined
      const checked = backup?.rows ?? files.readList(io.input!)
      const rows = checked.filter((row): row is files.ImportRow => 'email' in row)
      if (backup) {
        const added = await sql.restoreErasures(db, backup.erasures)
        if (added === null)
          throw new UsageError(
            `${db.list} has erasure marks of its own, under another key: --with-erasures restores into a fresh project, and changed nothing.`,
          )
        say(`waitlist: ${added} erasure marks taken from the backup.`)
      }
      // Only once the file is a list: one that is not changes nothing, not even what --restore names.
      const inFile = new Set(rows.map((row) => row.email))
      for (const address of restore.filter((address) => !inFile.has(address)))
        say(`waitlist: warning: --restore ${address} is not in the file: nothing restored for it.`)
      await sql.unerase(
        db,
        restore.filter((address) => inFile.has(address)),
      )
      for (const row of checked) if (!('email' in row)) reject(row)
      for (let i = 0; i < rows.length; i += 500)
        await sql.insertBatch(db, rows.slice(i, i + 500), tally, reject)
      io.stdout.write(
        table([
          ['list', db.list],
          ['inserted', tally.inserted],
          ['skipped as duplicate', tally.duplicates],
          ['skipped as erased', tally.erased],
          ['rejected', tally.rejected],
        ]),
      )
      if (tally.erased)
        say(
          `waitlist: ${tally.erased} erased on request were not added back; name one with --restore ADDRESS to add it.`,
        )
      return tally.rejected > 0 ? 3 : 0
    }
    case 'check':
      return check(db, io)
    default: {
      if (db.kind !== 'supabase')
        throw new UsageError(
          'the embedded database makes and keeps its own signing secret: there is nothing to set.',
        )
      if (values['retire-previous']) {
        const inUse = await sql.retirePreviousSigningSecret(db, values.force === true)
        if (inUse)
          throw new UsageError(
            `--retire-previous changed nothing: the previous secret ${inUse}, so a server not yet redeployed may still sign with it; retire it 10 minutes after both, or with --force.`,
          )
        say(
          'waitlist: the database now refuses inserts signed with any secret but the current one.',
        )
        return 0
      }
      const secret = io.env[SIGNING_SECRET_VAR]?.trim() ?? ''
      if (secret.length < 32)
        throw new UsageError(
          `--set needs ${SIGNING_SECRET_VAR} set to the site's secret, at least 32 characters.`,
        )
      say(
        (await sql.setSigningSecret(db, secret))
          ? 'waitlist: the database now refuses any insert from the public key that the site did not sign with this secret (or the one it replaced, until --retire-previous).'
          : 'waitlist: this secret is already set; nothing changed.',
      )
      return 0
    }
  }
}
