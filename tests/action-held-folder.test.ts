import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { runWaitlistCli } from '@/lib/waitlist/operator/cli'
import { runScript, type Child } from './support/child-process'
import { freshAction, stopServer, type JoinAction } from './support/fresh-server'
import { sink } from './support/sink'
import { allowForDatabaseStarts } from './support/timeouts'

allowForDatabaseStarts()

vi.mock('next/headers', async () => ({
  headers: (await import('./support/request')).requestHeaders,
}))

/**
 * The server action on a data folder that another process holds, as a
 * second server started on the same WAITLIST_DATA_DIR meets it.
 */
let dir: string
let folder: string
let other: Child | undefined
let joinWaitlist: JoinAction

function post(email: string): FormData {
  const form = new FormData()
  form.set('source', 'hero_section')
  form.set('email', email)
  return form
}

const join = (email: string) => joinWaitlist({ status: 'idle' }, post(email))

/** The list as the operator reads it: from a copy, while this process holds the folder. */
async function storedEmails(): Promise<string[]> {
  const out = sink()
  const code = await runWaitlistCli(['export', '--format', 'json'], {
    env: { WAITLIST_DATA_DIR: folder },
    stdout: out.stream,
    stderr: sink().stream,
  })
  expect(code).toBe(0)
  return (JSON.parse(out.text()) as { email: string }[]).map((row) => row.email)
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'held-folder-'))
  folder = path.join(dir, 'data')
})

afterEach(async () => {
  await stopServer()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  await other?.stop('SIGKILL')
  other = undefined
  await rm(dir, { recursive: true, force: true })
})

describe('a server whose data folder another server holds', () => {
  it('refuses signups, says why once, and takes the folder over once it is free', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'info').mockImplementation(() => {})
    other = runScript('tests/support/hold-folder-lock.ts', [folder])
    await other.waitFor(/locked/)
    joinWaitlist = await freshAction({ WAITLIST_DATA_DIR: folder })

    expect(await join('first@example.com')).toMatchObject({ status: 'error' })
    expect(await join('second@example.com')).toMatchObject({ status: 'error' })

    expect(errors).toHaveBeenCalledTimes(1)
    const said = String(errors.mock.calls[0]?.[0])
    expect(said).toContain(`The embedded database at ${folder} is in use by`)
    expect(said).toMatch(new RegExp(`process ${other.pid} on this machine, started \\d{4}-`))
    expect(said).toContain('Stop that server, or set WAITLIST_DATA_DIR to another folder')
    // Each refused signup: one short line, its address masked.
    expect(warnings).toHaveBeenCalledTimes(2)
    expect(String(warnings.mock.calls[1]?.[0])).toMatch(/signup not stored .*se\*\*\*@example\.com/)

    await other.stop('SIGTERM')
    expect(await join('third@example.com')).toMatchObject({ status: 'joined' })
    expect(await join('third@example.com')).toMatchObject({ status: 'already_joined' })

    expect(await storedEmails()).toEqual(['third@example.com'])
  })

  it('stops writing when it loses the folder, and takes it again at the next signup', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(console, 'info').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    joinWaitlist = await freshAction({ WAITLIST_DATA_DIR: folder })
    expect(await join('before@example.com')).toMatchObject({ status: 'joined' })

    // What another process does when it takes a lock over as stale: remove it, take it.
    await rm(path.join(folder, 'waitlist.lock'), { recursive: true })
    other = runScript('tests/support/hold-folder-lock.ts', [folder])
    await other.waitFor(/locked/)
    const lost = `lost the lock on the data folder ${folder} `
    await vi.waitFor(
      () => expect(errors.mock.calls.some(([line]) => String(line).includes(lost))).toBe(true),
      { timeout: 15_000, interval: 200 },
    )
    expect(await join('meanwhile@example.com')).toMatchObject({ status: 'error' })

    await other.stop('SIGTERM')
    expect(await join('after@example.com')).toMatchObject({ status: 'joined' })
    expect(await storedEmails()).toEqual(['before@example.com', 'after@example.com'])
  })
})
