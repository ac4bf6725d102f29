import { writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { joinWith } from '@/lib/waitlist/join'
import { whileFolderHeld } from './support/folder-holder'
import {
  embeddedOperatorStore,
  operatorStores,
  runCli,
  supabaseOperatorStore,
  type OperatorStore,
} from './support/operator-stores'
import { allowForDatabaseStarts } from './support/timeouts'

allowForDatabaseStarts()

/** `npm run waitlist -- remove`: an unsubscribe or erasure request, honoured on either store. */
const LIST = [
  ['anna@example.com', 'hero_section'],
  ['ben@example.com', 'cta_section'],
  ['cleo@example.com', 'hero_section'],
] as const

describe.each(operatorStores)('remove, on %s', (_name, open) => {
  let subject: OperatorStore
  const remove = (args: string[], stdin?: string) =>
    runCli(['remove', ...args], subject.env, { stdin })
  const emails = async () => (await subject.rows()).map((row) => row.email)

  beforeEach(async () => {
    subject = await open()
    await subject.seed(LIST)
  })
  afterEach(() => subject.close())

  it('removes an address typed in another case and with spaces, and says so per address', async () => {
    const result = await remove(['  ANNA@Example.com ', 'nobody@example.com'])
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(
      'removed           anna@example.com\nnot on the list   nobody@example.com\n',
    )
    expect(result.stderr).toContain('Removed 1 of 2; 1 was not on the list.')
    // Log lines mask addresses; the per-address answer on stdout is the data asked for.
    expect(result.stderr).not.toContain('anna@example.com')
    expect(await emails()).toEqual(['ben@example.com', 'cleo@example.com'])
  })

  it('answers a second removal of the same address with "not on the list", and exit 0', async () => {
    expect((await remove(['ben@example.com'])).code).toBe(0)
    const again = await remove(['ben@example.com'])
    expect(again).toMatchObject({ code: 0, stdout: 'not on the list   ben@example.com\n' })
  })

  it('lets a removed person join again from the page', async () => {
    await remove(['cleo@example.com'])
    const site = await subject.siteStore()
    try {
      const form = new FormData()
      form.set('email', 'Cleo@Example.com')
      form.set('source', 'cta_section')
      await expect(joinWith(form, async () => site.store)).resolves.toMatchObject({
        status: 'joined',
      })
    } finally {
      await site.close()
    }
    expect((await subject.rows()).at(-1)).toMatchObject({
      email: 'cleo@example.com',
      source: 'cta_section',
    })
  })

  it('only says what would go with --dry-run', async () => {
    const result = await remove(['--dry-run', 'anna@example.com', 'nobody@example.com'])
    expect(result).toMatchObject({
      code: 0,
      stdout: 'would be removed  anna@example.com\nnot on the list   nobody@example.com\n',
    })
    expect(result.stderr).toContain('nothing was removed (--dry-run)')
    expect(await emails()).toEqual(LIST.map(([email]) => email))
  })

  it('reads addresses one a line from a file, and from standard input with -', async () => {
    const file = path.join(os.tmpdir(), `remove-${process.pid}-${Date.now()}.txt`)
    await writeFile(file, '\uFEFFanna@example.com\r\n\r\nBEN@example.com\r\n')
    expect((await remove(['--from', file])).stdout).toBe(
      'removed           anna@example.com\nremoved           ben@example.com\n',
    )
    expect((await remove(['-'], 'cleo@example.com\nnobody@example.com\n')).stdout).toBe(
      'removed           cleo@example.com\nnot on the list   nobody@example.com\n',
    )
    expect(await emails()).toEqual([])
  })
})

describe('remove, on the embedded database held by a running server', () => {
  let subject: OperatorStore

  beforeEach(async () => {
    subject = await embeddedOperatorStore()
    await subject.seed(LIST)
  })
  afterEach(() => subject.close())

  it('refuses, naming the server and how to stop it, and changes nothing', async () => {
    await whileFolderHeld(subject.env.WAITLIST_DATA_DIR!, async (server) => {
      const result = await runCli(['remove', 'anna@example.com'], subject.env)
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(
        new RegExp(`in use by .*process ${server.pid} on this machine, started \\d{4}-`),
      )
      expect(result.stderr).toContain(`kill ${server.pid}`)
      expect(result.stdout).toBe('')
    })
    expect((await subject.rows()).map((row) => row.email)).toEqual(LIST.map(([email]) => email))
  })
})

describe('remove, on Supabase with the public key', () => {
  it('is refused before any request, naming the service-key variables', async () => {
    const subject = await supabaseOperatorStore()
    try {
      await subject.seed(LIST)
      const { harness } = subject
      for (const env of [
        { SUPABASE_URL: harness.url, SUPABASE_ANON_KEY: harness.anonKey } as Record<string, string>,
        { SUPABASE_URL: harness.url, SUPABASE_SERVICE_ROLE_KEY: harness.anonKey },
      ]) {
        const result = await runCli(['remove', 'anna@example.com'], env)
        expect(result.code).toBe(1)
        expect(result.stderr).toMatch(/SUPABASE_SERVICE_ROLE_KEY/)
      }
      expect(harness.requests).toHaveLength(0)
      expect(await subject.rows()).toHaveLength(3)
    } finally {
      await subject.close()
    }
  })
})
