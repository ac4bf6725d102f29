import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { folderHolder } from '@/lib/waitlist/folder-lock'
import { freshAction, stopServer } from './support/fresh-server'

vi.mock('next/headers', async () => ({
  headers: (await import('./support/request')).requestHeaders,
}))

/** How the server behaves with a configuration it cannot use: the page stays up, signups fail, the log says why once. */
function post(email: string): FormData {
  const form = new FormData()
  form.set('source', 'hero_section')
  form.set('email', email)
  return form
}

afterEach(async () => {
  await stopServer()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe.each([
  [
    'on Vercel without Supabase',
    { VERCEL: '1' },
    /NEXT_PUBLIC_SUPABASE_URL and NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY/,
  ],
  [
    'with a URL but no key',
    { SUPABASE_URL: 'https://abcd.supabase.co' },
    /SUPABASE_URL is set but no Supabase key/,
  ],
  [
    'with a malformed URL',
    { NEXT_PUBLIC_SUPABASE_URL: 'abcd', SUPABASE_ANON_KEY: 'k' },
    /NEXT_PUBLIC_SUPABASE_URL is not an http\(s\) URL/,
  ],
])('%s', (_name, env, message) => {
  it('answers every signup with the generic failure and logs the cause once', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const joinWaitlist = await freshAction(env)

    const first = await joinWaitlist({ status: 'idle' }, post('ann@example.com'))
    const second = await joinWaitlist(first, post('bob@example.com'))

    expect([first.status, second.status]).toEqual(['error', 'error'])
    expect(errors).toHaveBeenCalledTimes(1)
    expect(String(errors.mock.calls[0]?.[0])).toMatch(message)
    // It never quietly falls back to the embedded database.
    expect(info).not.toHaveBeenCalled()
  })
})

describe('with no configuration, off Vercel', () => {
  it('announces the embedded store once and serves from it', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const joinWaitlist = await freshAction({ WAITLIST_DATA_DIR: 'memory://' })

    await expect(joinWaitlist({ status: 'idle' }, post('ann@example.com'))).resolves.toMatchObject({
      status: 'joined',
    })
    await expect(joinWaitlist({ status: 'idle' }, post('ann@example.com'))).resolves.toMatchObject({
      status: 'already_joined',
    })
    // Once each: where signups go, and which limits the database applies to them.
    expect(info.mock.calls.map(([line]) => String(line))).toEqual([
      expect.stringContaining('signups go to the embedded database (in memory'),
      expect.stringContaining(
        'the database admits at most 600 new signups a minute from everyone together, ' +
          'and 10 a minute from each visitor (WAITLIST_RATE_LIMIT_PER_MINUTE)',
      ),
    ])
  })
})

describe('a server started again', () => {
  it('in memory, starts with an empty list', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    for (const run of ['first', 'second']) {
      const joinWaitlist = await freshAction({ WAITLIST_DATA_DIR: 'memory://' })
      const state = await joinWaitlist({ status: 'idle' }, post('ann@example.com'))
      expect(state.status, `the ${run} server`).toBe('joined')
    }
  })

  it('on a folder, has every signup the server before it stored', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const dir = await mkdtemp(path.join(os.tmpdir(), 'restart-'))
    try {
      const env = { WAITLIST_DATA_DIR: path.join(dir, 'data') }
      const first = await freshAction(env)
      await expect(first({ status: 'idle' }, post('ann@example.com'))).resolves.toMatchObject({
        status: 'joined',
      })
      await stopServer()
      expect(await folderHolder(env.WAITLIST_DATA_DIR)).toBeUndefined()
      const second = await freshAction(env)
      await expect(second({ status: 'idle' }, post('ann@example.com'))).resolves.toMatchObject({
        status: 'already_joined',
      })
    } finally {
      await stopServer()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
