import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { LOCK_STALE_MS } from '../lib/waitlist/folder-lock'
import { openLocalDatabase } from '../lib/waitlist/open-local-database'
import { noSupabase } from '../tests/support/environments'
import {
  postSignup,
  readSignupForm,
  type Outcome,
  type SignupForm,
} from '../tests/support/form-post'
import { EMBEDDED_STORE_OPEN, startNextServer, type NextServer } from '../tests/support/next-server'
import { unusedPort } from '../tests/support/ports'

/**
 * The embedded database's promises, kept by real `next start` processes on
 * one data folder: what a crash, a second server and a restart do to the
 * list. Signups are the no-JavaScript form post, the smallest real request.
 */
test.describe.configure({ timeout: 180_000 })

let folder: string
const servers: NextServer[] = []

/**
 * A server on the folder. `waitForOpen` waits until it has created the database
 * in the new folder, so the test's first posts are not sent while that holds the server.
 */
async function start({ waitForOpen = false } = {}): Promise<NextServer> {
  const server = await startNextServer({
    port: await unusedPort(),
    readyOutput: waitForOpen ? EMBEDDED_STORE_OPEN : undefined,
    env: { ...noSupabase, WAITLIST_DATA_DIR: folder, WAITLIST_RATE_LIMIT_PER_MINUTE: '0' },
  })
  servers.push(server)
  return server
}

async function post(form: SignupForm, email: string): Promise<Outcome | 'no answer'> {
  try {
    return (await postSignup(form, { fields: [['email', email]] })).outcome
  } catch {
    return 'no answer'
  }
}

async function postAll(form: SignupForm, emails: string[]): Promise<(Outcome | 'no answer')[]> {
  const outcomes: (Outcome | 'no answer')[] = []
  for (const email of emails) outcomes.push(await post(form, email))
  return outcomes
}

const addresses = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}@example.com`)

async function storedEmails(): Promise<string[]> {
  const local = await openLocalDatabase(folder)
  try {
    const { rows } = await local.db.query<{ email: string }>(
      'select email from public.waitlist order by id',
    )
    return rows.map((row) => row.email)
  } finally {
    await local.close()
  }
}

test.beforeEach(async () => {
  folder = path.join(await mkdtemp(path.join(os.tmpdir(), 'embedded-folder-')), 'data')
})

test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')))
  await rm(path.dirname(folder), { recursive: true, force: true })
})

test('a server killed mid-load keeps every signup it acknowledged, and a restart takes its folder over', async () => {
  const first = await start({ waitForOpen: true })
  const form = await readSignupForm(`${first.url}/`)

  // 60 signups, 10 at a time; the server is killed once 20 have been acknowledged.
  const queue = addresses('crash', 60)
  const acknowledged: string[] = []
  const cutOff: string[] = []
  let killed: Promise<void> | undefined
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let email = queue.shift(); email; email = queue.shift()) {
        const outcome = await post(form, email)
        if (outcome === 'joined') acknowledged.push(email)
        else cutOff.push(email)
        if (acknowledged.length >= 20) killed ??= first.stop('SIGKILL')
      }
    }),
  )
  await killed
  expect(acknowledged.length).toBeGreaterThanOrEqual(20)
  // Killed mid-load: some posts never got their answer.
  expect(cutOff.length).toBeGreaterThan(0)

  const second = await start()
  const again = await readSignupForm(`${second.url}/`)
  // The dead server's lock keeps the folder until it goes stale; each signup meanwhile is refused.
  await expect
    .poll(() => post(again, acknowledged[0]!), {
      timeout: LOCK_STALE_MS + 30_000,
      intervals: [1000],
    })
    .toBe('already_joined')
  expect(await postAll(again, acknowledged)).toEqual(acknowledged.map(() => 'already_joined'))
  expect(await post(again, 'after-restart@example.com')).toBe('joined')
})

test('a second server on a held folder refuses, loses nothing, and takes over when the first stops', async () => {
  const first = await start({ waitForOpen: true })
  const firstForm = await readSignupForm(`${first.url}/`)
  const second = await start()
  const secondForm = await readSignupForm(`${second.url}/`)

  await second.waitForOutput(/signups are refused/)
  const refusal = second
    .output()
    .split('\n')
    .filter((line) => line.includes('signups are refused'))
  expect(refusal).toHaveLength(1)
  expect(refusal[0]).toContain(`The embedded database at ${folder} is in use by`)
  expect(refusal[0]).toMatch(new RegExp(`process ${first.pid} on this machine, started \\d{4}-`))
  expect(refusal[0]).toContain('Stop that server, or set WAITLIST_DATA_DIR to another folder')

  const toFirst = addresses('first', 10)
  const toSecond = addresses('second', 10)
  expect(await postAll(firstForm, toFirst)).toEqual(toFirst.map(() => 'joined'))
  expect(await postAll(secondForm, toSecond)).toEqual(toSecond.map(() => 'error'))
  expect(second.output().match(/signups are refused/g)).toHaveLength(1)

  await first.stop('SIGTERM')
  const afterwards = addresses('later', 10)
  expect(await postAll(secondForm, afterwards)).toEqual(afterwards.map(() => 'joined'))
  // Nothing the first acknowledged is lost, and nothing the second refused was stored.
  expect(await postAll(secondForm, toFirst)).toEqual(toFirst.map(() => 'already_joined'))
  expect(await postAll(secondForm, toSecond)).toEqual(toSecond.map(() => 'joined'))

  await second.stop('SIGTERM')
  expect(await storedEmails()).toEqual([...toFirst, ...afterwards, ...toSecond])
})
