// `npm run waitlist`: runs what the command line asks on the store it names, and says every failure
// it expects in one line with its exit status.
import { CommanderError, type Command } from 'commander'
import type { Env } from '@/lib/env'
import { connect } from './database'
import { EXIT, expectedExit, Failure, say, UsageError, type Io } from './io'
import { checkOutput, readInput } from './list-files'
import { waitlistProgram, type Task } from './program'
import { chooseStores, type StoreKind } from './stores'

export { EXIT }

// Without `--`, npm keeps an option it knows for itself (saying so only in npm_config_<name>),
// or drops one without a trace and passes its value on as an argument.
const underNpm = (env: Env) => env.npm_lifecycle_event === 'waitlist'
const putTheDashes = (command = '<command>', option = '<option>') =>
  `put -- after \`npm run waitlist\` so that npm leaves the options to the command: npm run waitlist -- ${command} --${option} …`

function refuseWhatNpmTook(argv: string[], program: Command, env: Env): void {
  if (!underNpm(env)) return
  const taken = [program, ...program.commands]
    .flatMap((command) => command.options)
    .find((option) => env[`npm_config_${option.name().replaceAll('-', '_')}`])
  if (taken)
    throw new UsageError(
      `npm took --${taken.name()} for itself: ${putTheDashes(argv[0], taken.name())}`,
    )
}

export async function runWaitlistCli(argv: string[], io: Io): Promise<number> {
  let task: Task | undefined
  const program = waitlistProgram(io, (chosen) => (task = chosen))
  try {
    refuseWhatNpmTook(argv, program, io.env)
    await program.parseAsync(argv, { from: 'user' })
    return task ? await run(task, program.opts(), io) : EXIT.done
  } catch (error) {
    // commander has said its own: a mistake, or the help asked for.
    if (error instanceof CommanderError) {
      if (error.code === 'commander.excessArguments' && underNpm(io.env))
        say(io, `if it is an option's value, ${putTheDashes(argv[0])}.`)
      return error.exitCode === 0 ? EXIT.done : EXIT.usage
    }
    const status = expectedExit(error)
    if (status === undefined) throw error
    say(io, (error as Error).message)
    return status
  }
}

/** Chooses the store, refuses a change it cannot tell is the site's, opens it, and runs the task. */
async function run(task: Task, chosen: { list?: StoreKind; project?: string }, io: Io) {
  const stores = chooseStores(io.env, chosen.list, chosen.project)
  const { target, site, conflict, unknown } = stores
  if (task.changes && conflict)
    throw new UsageError(
      `${task.name} changed nothing: SUPABASE_DB_URL names ${target.name}, and ${conflict.site}. ${conflict.settle}`,
    )
  if (task.changes && unknown)
    throw new UsageError(
      `${task.name} changed nothing: it cannot tell that SUPABASE_DB_URL's ${target.name} is the project the site writes to, as ${unknown}. If it is, say so with --project <ref> (the project's ref, or the name of a database of your own).`,
    )
  const broken =
    'problem' in site
      ? `the site takes no signups, its configuration is broken: ${site.problem}`
      : undefined
  if (task.name === 'check' && broken) throw new Failure(broken)
  const input = task.input ? await readInput(task.input, io) : ''
  if (task.output) await checkOutput(task.output)
  const db = await connect(stores)
  try {
    say(io, `${task.name} on ${db.where}${stores.sites ? ", the site's list" : ''}`)
    if (conflict) say(io, `note: ${conflict.site}, not to this list.`)
    if (unknown) say(io, `note: this may not be the list the site writes to, as ${unknown}.`)
    if (broken) say(io, `note: ${broken}`)
    return await task.run(db, { input, site })
  } finally {
    await db.close().catch(() => {})
  }
}
