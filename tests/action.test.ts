import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { openFolder } from '@/lib/waitlist/data-folder'
import type { WaitlistState } from '@/lib/waitlist/form-contract'
import { muteFolder } from './support/mute-folder'
import { startServerWith } from './support/server-start'

/** The action called as Next calls it, from a visitor behind one proxy, on the embedded database. */
const requestHeaders = vi.hoisted(() => ({ value: new Headers() }))
vi.mock('next/headers', () => ({ headers: async () => requestHeaders.value }))
const { joinWaitlist } = await import('@/lib/waitlist/actions')

const idle: WaitlistState = { status: 'idle' }
let folder: string
let logged: string[]

function post(fields: Record<string, string>, from = '203.0.113.20') {
  requestHeaders.value = new Headers({ 'x-forwarded-for': `10.9.9.9, ${from}` })
  const form = new FormData()
  for (const [name, value] of Object.entries({ source: 'hero_section', ...fields }))
    form.set(name, value)
  return joinWaitlist(idle, form)
}

const startWith = (env: Record<string, string>) =>
  startServerWith({ WAITLIST_DATA_DIR: folder, WAITLIST_TRUSTED_PROXY: '1', ...env })

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'waitlist-action-'))
  // Made once (its migrations take a while on a busy machine); each test's store then attaches to it.
  await openFolder(folder)
}, 120_000)
afterAll(() => rm(folder, { recursive: true, force: true }))
beforeEach(() => {
  logged = []
  for (const level of ['info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => void logged.push(String(line)))
  }
  startWith({ WAITLIST_RATE_LIMIT_PER_MINUTE: '0' })
})

describe('a signup', () => {
  it('joins, and the same address in another case is already on the list', async () => {
    await expect(post({ email: ' Ann@Example.com ' })).resolves.toMatchObject({ status: 'joined' })
    await expect(post({ email: 'ANN@example.COM' })).resolves.toMatchObject({
      status: 'already_joined',
    })
  })

  // Which addresses and sources parseSignup refuses is tests/schema.test.ts's to prove.
  it('that the schema refuses fails, keeping the address, and is logged', async () => {
    const answer = await post({ email: 'ann@exa_mple.com' })
    expect(answer).toMatchObject({ status: 'error', email: 'ann@exa_mple.com' })
    expect(logged.join('\n')).toContain(
      'signup refused: an address or source the server cannot take',
    )
  })

  it('with the honeypot filled is welcomed, stores nothing, and is logged with the address masked', async () => {
    await expect(post({ email: 'bot@example.com', comments: 'buy now' })).resolves.toMatchObject({
      status: 'joined',
    })
    await expect(post({ email: 'bot@example.com' })).resolves.toMatchObject({ status: 'joined' })
    expect(logged.join('\n')).toContain(
      'honeypot filled: answered as joined, stored nothing email=bo***@example.com',
    )
  })
  it('whose store never opens fails within WAITLIST_STORE_TIMEOUT_MS, keeping the address, and is logged', async () => {
    const stuck = `${folder}-stuck`
    const release = await muteFolder(stuck)
    try {
      startWith({ WAITLIST_DATA_DIR: stuck, WAITLIST_STORE_TIMEOUT_MS: '300' })
      await expect(post({ email: 'fay@example.com' })).resolves.toMatchObject({
        status: 'error',
        email: 'fay@example.com',
      })
      expect(logged.join('\n')).toMatch(/signup failed .*no answer in time/)
    } finally {
      await release()
      await rm(stuck, { recursive: true, force: true })
    }
  })
})

describe("the server's first line", () => {
  it('counts every post, one that is no form at all included, and answers the spent allowance with a failure', async () => {
    startWith({ WAITLIST_RATE_LIMIT_PER_MINUTE: '2' })
    requestHeaders.value = new Headers({ 'x-forwarded-for': '10.9.9.9, 198.51.100.30' })
    await expect(joinWaitlist(idle, 'not a form' as unknown as FormData)).resolves.toMatchObject({
      status: 'error',
      email: '',
    })
    await expect(post({ email: 'carol@example.com' }, '198.51.100.30')).resolves.toMatchObject({
      status: 'joined',
    })
    await expect(post({ email: 'dave@example.com' }, '198.51.100.30')).resolves.toMatchObject({
      status: 'error',
    })
    // Another visitor behind the same proxy is counted apart.
    await expect(post({ email: 'erin@example.com' }, '198.51.100.31')).resolves.toMatchObject({
      status: 'joined',
    })
    expect(logged.join('\n')).toMatch(
      /signup refused: the post was not a form[^]*signup refused: over 2 posts a minute/,
    )
  })
})

describe('the log', () => {
  it('carries no control character a client sent, no address in full and no network address', async () => {
    await post(
      { email: 'mallory@example.com\r\n[waitlist] forged line\u001b[31m' },
      '198.51.100.77',
    )
    await post({ email: 'x@example.com', comments: 'z' }, '198.51.100.77')
    const text = logged.join('\n')
    expect(text).not.toMatch(/[\r\u001b]/)
    expect(text.split('\n').filter((line) => line.includes('forged line'))).toEqual([
      expect.stringMatching(/^\[waitlist\] signup refused/),
    ])
    expect(text).not.toContain('mallory@')
    expect(text).not.toContain('198.51.100.77')
  })
})
