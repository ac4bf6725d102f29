// The check command: what the database records and holds, read from the CLI's history and the
// catalogs, and the first thing wrong with it; it changes nothing.
import type { Writable } from 'node:stream'
import { readMigrations } from '@/lib/waitlist/migrations'
import type { Database } from './database'
import type { SiteList } from './lists'
import { lastSigned, one, type Db } from './sql'
import { signups, table, type Row } from './table'

type State = Awaited<ReturnType<typeof schemaState>>

async function schemaState(db: Db) {
  // A statement naming a table that is not there fails as a whole: first which are there.
  const has = await one<Record<'history' | 'limits' | 'secrets' | 'trigger', boolean>>(
    db,
    `select to_regclass('supabase_migrations.schema_migrations') is not null as history,
            to_regclass('waitlist_private.signup_limits') is not null as limits,
            to_regclass('waitlist_private.secrets') is not null as secrets,
            exists (select 1 from pg_trigger where tgrelid = to_regclass('public.waitlist')
                     and tgname = 'limit_signups' and tgenabled in ('O', 'A')) as trigger`,
  )
  const { applied } = has.history
    ? await one<{ applied: string[] | null }>(
        db,
        'select array_agg(version::text order by version) as applied from supabase_migrations.schema_migrations',
      )
    : { applied: null }
  const limits = has.limits
    ? await one<{ ceiling: number | null; held_back: number } | undefined>(
        db,
        `select signups_per_minute as ceiling, (select signups::int from waitlist_private.held_back) as held_back
           from waitlist_private.signup_limits`,
      )
    : undefined
  const secrets = has.secrets
    ? await one<
        { signed: boolean; previous: boolean; signed_at: string; previous_at: string } | undefined
      >(
        db,
        `select signing_secret is not null as signed, previous_signing_secret is not null as previous,
                ${lastSigned('signed_at')} as signed_at, ${lastSigned('previous_signed_at')} as previous_at
           from waitlist_private.secrets`,
      )
    : undefined
  return {
    applied,
    limits: has.trigger && limits !== undefined,
    ceiling: limits?.ceiling,
    heldBack: limits?.held_back ?? 0,
    signed: secrets?.signed ?? null,
    previous: secrets?.previous ?? false,
    signedAt: secrets?.signed_at,
    previousSignedAt: secrets?.previous_at,
  }
}

/** The first thing wrong with the schema, and what to do about it. */
function schemaProblem(state: State, files: string[], db: Database): string | undefined {
  const apply =
    db.kind === 'supabase'
      ? 'apply them with `npx supabase db push`'
      : 'restart the server that has the folder open with this code'
  if (!state.applied?.length)
    return `${db.where} records no migration as applied: ${apply}; if they were run by hand in the SQL editor, record each with \`npx supabase migration repair --status applied <version>\`.`
  const unknown = state.applied.filter(
    (version) => !files.some((file) => file.startsWith(`${version}_`)),
  )
  if (unknown.length)
    return `${db.where} records migration ${unknown.join(', ')}, which supabase/migrations does not have: check it from the code that applied it.`
  const missing = files.filter((file) => !state.applied!.includes(file.split('_')[0]!))
  if (missing.length)
    return `supabase/migrations/${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not applied to ${db.where}: ${apply}, then run this again.`
  if (!state.limits || state.ceiling === undefined)
    return `the signup limits are not in place on ${db.where}: the trigger limit_signups on public.waitlist is missing or disabled, so nothing limits how fast signups are stored.`
}

const NOTHING_HOLDS =
  'nothing holds the folder now (this command opened it); while npm run dev or npm start runs, check prints the command that reaches it'

/** Resolves to the exit status. */
export async function check(
  db: Database,
  site: SiteList,
  stdout: Writable,
  say: (text: string) => void,
): Promise<number> {
  const [state, files] = await Promise.all([schemaState(db), readMigrations()])
  const names = files.map((file) => file.file)
  const problem = schemaProblem(state, names, db)
  if (problem) {
    say(`waitlist: ${problem}`)
    return 1
  }
  const ceiling =
    state.ceiling === null
      ? 'none: no limit on signups from everyone together (null)'
      : state.ceiling === 0
        ? 'closed: no signup is taken (0)'
        : `${state.ceiling} new signups a minute from everyone together`
  const signedWhen = state.previous
    ? `${state.signedAt}; the previous secret ${state.previousSignedAt}`
    : state.signedAt!
  const signing = !state.signed
    ? 'not set: signups are closed until it is'
    : `set: only the site adds to the list${state.previous ? '; the previous secret is still accepted' : ''}`
  stdout.write(
    table([
      ['Database', db.where],
      ['Site writes to', 'problem' in site ? site.problem : site.name],
      ...(db.kind === 'embedded' ? [['psql', db.psql ?? NOTHING_HOLDS] as Row] : []),
      ['Migrations', `all ${names.length} applied, the newest ${names.at(-1)}`],
      ['Signup limits', 'in place'],
      ['Ceiling', ceiling],
      ['Signing secret', signing],
      ...(state.signed ? [['Last signed', signedWhen] as Row] : []),
      ['Held back', `${signups(state.heldBack)} of addresses erased on request`],
    ]),
  )
  if (state.previous)
    say(
      'waitlist: the secret the current one replaced is still accepted: once every server signs with the new one, `npm run waitlist -- signing-secret --retire-previous`.',
    )
  if (!state.signed)
    say(
      'waitlist: warning: no signing secret is set, so signups are closed: `npm run waitlist -- signing-secret` makes one, `--set` sets it (docs/supabase.md).',
    )
  return 0
}
