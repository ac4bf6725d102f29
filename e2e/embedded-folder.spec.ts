import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { noSupabase } from '../tests/support/environments'
import {
  postSignup,
  readSignupForm,
  type Outcome,
  type SignupForm,
} from '../tests/support/form-post'
import { startNextServer, STORE_OPEN, type NextServer } from '../tests/support/next-server'
import { cliProcess } from '../tests/support/processes'

// The embedded database's promises under real `next start` processes on one data folder: crash,
// restart, a second server. Signups are the no-JavaScript post, the smallest real request.
test.describe.configure({ timeout: 180_000 })

let folder: string
const servers: NextServer[] = []

async function start(): Promise<{ server: NextServer; form: SignupForm }> {
  const server = await startNextServer({
    env: { ...noSupabase, WAITLIST_DATA_DIR: folder, WAITLIST_RATE_LIMIT_PER_MINUTE: '0' },
  })
  servers.push(server)
  return { server, form: await readSignupForm(`${server.url}/`) }
}

const post = (form: SignupForm, email: string): Promise<Outcome | 'no answer'> =>
  postSignup(form, { fields: [['email', email]] }).then(
    ({ outcome }) => outcome,
    () => 'no answer' as const,
  )

const addresses = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}@example.com`)

/** The list, as the operator's export reads it. */
async function storedEmails(): Promise<string[]> {
  const { status, stdout, said } = await cliProcess(['export', '--format', 'json'], {
    ...noSupabase,
    WAITLIST_DATA_DIR: folder,
  })
  expect(status, said.join('\n')).toBe(0)
  return (JSON.parse(stdout) as { email: string }[]).map((row) => row.email).sort()
}

test.beforeEach(async () => {
  folder = path.join(await mkdtemp(path.join(os.tmpdir(), 'embedded-folder-')), 'data')
})
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')))
  await rm(path.dirname(folder), { recursive: true, force: true })
})

test('a server killed mid-load keeps every signup it acknowledged, and one started right after takes the next signup', async () => {
  const first = await start()
  await first.server.waitForOutput(STORE_OPEN)
  const queue = addresses('crash', 60)
  const acknowledged: string[] = []
  let killed: Promise<void> | undefined
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let email = queue.shift(); email; email = queue.shift()) {
        if ((await post(first.form, email)) === 'joined') acknowledged.push(email)
        if (acknowledged.length >= 20) killed ??= first.server.stop('SIGKILL')
      }
    }),
  )
  await killed
  expect(acknowledged.length).toBeGreaterThanOrEqual(20)
  const startedAt = Date.now()
  const second = await start()
  // No waiting out a stale lock: the first signup the new server is sent, it stores.
  expect(await post(second.form, 'after-restart@example.com')).toBe('joined')
  test.info().annotations.push({
    type: 'restart to first signup',
    description: `${Date.now() - startedAt} ms`,
  })
  for (const email of acknowledged) expect(await post(second.form, email)).toBe('already_joined')
})

test('a second server on the folder writes through the first, loses nothing, and takes over the moment the first dies', async () => {
  const first = await start()
  // The first has the folder before the second starts: on a busy machine its migrations can
  // outlast the 10 s a second server waits for a folder that is being opened.
  await first.server.waitForOutput(STORE_OPEN)
  const second = await start()
  await second.server.waitForOutput(
    /is open in another process: signups go through it|opened the embedded database/,
  )
  const toFirst = addresses('first', 10)
  const toSecond = addresses('second', 10)
  expect(await Promise.all(toFirst.map((email) => post(first.form, email)))).toEqual(
    toFirst.map(() => 'joined'),
  )
  expect(await Promise.all(toSecond.map((email) => post(second.form, email)))).toEqual(
    toSecond.map(() => 'joined'),
  )
  // Only one of them ever opened the folder.
  expect(
    servers.filter((server) => server.output().includes('opened the embedded database')),
  ).toHaveLength(1)
  const owner = servers.find((server) => server.output().includes('opened the embedded database'))!
  const other = owner === first.server ? second : first
  await owner.stop('SIGKILL')
  const later = addresses('later', 5)
  expect(await Promise.all(later.map((email) => post(other.form, email)))).toEqual(
    later.map(() => 'joined'),
  )
  await other.server.stop()
  expect(await storedEmails()).toEqual([...toFirst, ...later, ...toSecond].sort())
})
