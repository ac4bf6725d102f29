// The check command: what the database records and holds, read from the CLI's history and the
// catalogs, and the first thing wrong with it; it changes nothing.
import { readMigrations } from '@/lib/waitlist/migrations'
import type { Database } from './database'
import { EXIT, Failure, say, table, type Io, type Row } from './io'
import { firstRow, lastSigned } from './sql'
import type { SiteStore } from './stores'

type State = {
  ceiling: number | null
  held_back: number
  signed: boolean
  previous: boolean
  signed_at: string
  previous_at: string
  replaced_at: string
}

/** The same SQL, whatever its spacing: the Supabase CLI records a file split into its statements. */
const sameSql = (a: string, b: string) => a.replace(/[\s;]+/g, '') === b.replace(/[\s;]+/g, '')

type Migration = Awaited<ReturnType<typeof readMigrations>>[number]

async function migrationProblem(db: Database, files: Migration[]): Promise<string | undefined> {
  const apply =
    db.kind === 'supabase'
      ? 'apply them with `npx supabase db push`'
      : 'restart the server that has the folder open with this code'
  // A statement naming a table that is not there fails as a whole: first whether it is.
  const { history } = await firstRow<{ history: boolean }>(
    db,
    "select to_regclass('supabase_migrations.schema_migrations') is not null as history",
  )
  const { rows: applied } = history
    ? await db.client.query<{ version: string; statements: string[] | null }>(
        'select version::text, statements from supabase_migrations.schema_migrations order by version',
      )
    : { rows: [] }
  if (!applied.length)
    return `${db.where} records no migration as applied: ${apply}; if they were run by hand in the SQL editor, record each with \`npx supabase migration repair --status applied <version>\`.`
  const unknown = applied.filter(({ version }) => !files.some((file) => file.version === version))
  if (unknown.length)
    return `${db.where} records migration ${unknown.map(({ version }) => version).join(', ')}, which supabase/migrations does not have: check it from the code that applied it.`
  const missing = files.filter((file) => !applied.some(({ version }) => version === file.version))
  if (missing.length)
    return `supabase/migrations/${missing.map(({ file }) => file).join(', ')} ${missing.length > 1 ? 'are' : 'is'} not applied to ${db.where}: ${apply}, then run this again.`
  // Before launch the baseline is still edited: a database that applied an earlier text lacks its rules.
  const changed = files.filter(({ version, sql }) => {
    const statements = applied.find((migration) => migration.version === version)?.statements
    return statements && !sameSql(statements.join('\n'), sql)
  })
  if (changed.length)
    return `${db.where} applied an earlier text of supabase/migrations/${changed.map(({ file }) => file).join(', ')}, so it lacks rules of this one: move its list to a fresh database (docs/supabase.md#a-database-that-applied-an-earlier-schema).`
}

function ceilingSaid(ceiling: number | null): string {
  if (ceiling === null) return 'none: no limit on signups from everyone together (null)'
  if (ceiling === 0) return 'closed: no signup is taken (0)'
  return `${ceiling} new signups a minute from everyone together`
}

const NOTHING_HOLDS =
  'nothing holds the folder now (this command opened it); while npm run dev or npm start runs, check prints the command that reaches it'

export async function check(db: Database, io: Io, site: SiteStore): Promise<number> {
  const migrations = await readMigrations()
  const problem = await migrationProblem(db, migrations)
  if (problem) throw new Failure(problem)
  // No row where the limits' trigger is missing or disabled.
  const state = await firstRow<State | undefined>(
    db,
    `select l.signups_per_minute as ceiling, (select count(held_back_at)::int from waitlist_private.erasures) as held_back,
            s.signing_secret is not null as signed, s.previous_signing_secret is not null as previous,
            ${lastSigned('s.signed_at')} as signed_at, ${lastSigned('s.previous_signed_at')} as previous_at,
            ${lastSigned('s.replaced_at')} as replaced_at
       from waitlist_private.signup_limits l left join waitlist_private.secrets s on true
      where exists (select 1 from pg_trigger where tgrelid = 'public.waitlist'::regclass
                     and tgname = 'limit_signups' and tgenabled in ('O', 'A'))`,
  )
  if (!state)
    throw new Failure(
      `the signup limits are not in place on ${db.where}: the trigger limit_signups on public.waitlist is missing or disabled, so nothing limits how fast signups are stored.`,
    )
  const signedWhen = state.previous
    ? `${state.signed_at}; the previous secret ${state.previous_at}, replaced ${state.replaced_at}`
    : state.signed_at
  const signing = !state.signed
    ? 'not set: signups are closed until it is'
    : `set: only the site adds to the list${state.previous ? '; the previous secret is still accepted' : ''}`
  io.stdout.write(
    table([
      ['Database', db.where],
      ['Site writes to', 'problem' in site ? site.problem : site.name],
      ...(db.kind === 'embedded' ? [['psql', db.psql ?? NOTHING_HOLDS] as Row] : []),
      ['Migrations', `all ${migrations.length} applied, the newest ${migrations.at(-1)?.file}`],
      ['Signup limits', 'in place'],
      ['Ceiling', ceilingSaid(state.ceiling)],
      ['Signing secret', signing],
      ...(state.signed ? [['Last signed', signedWhen] as Row] : []),
      ['Held back', `${state.held_back} erased on request, then signed up again`],
    ]),
  )
  if (state.previous)
    say(
      io,
      'the secret the current one replaced is still accepted: once every server signs with the new one, `npm run waitlist -- signing-secret --retire-previous`.',
    )
  if (!state.signed)
    say(
      io,
      'warning: no signing secret is set, so signups are closed: `npm run waitlist -- signing-secret` makes one, `--set` sets it (docs/supabase.md).',
    )
  return EXIT.done
}
