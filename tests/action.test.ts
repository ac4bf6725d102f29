import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WaitlistState } from '@/lib/waitlist/state'
import type { WaitlistStore } from '@/lib/waitlist/store'
import { actionOnMemoryStore, type JoinAction } from './support/fresh-server'
import { freshClient, fromClient } from './support/request'

vi.mock('next/headers', async () => ({
  headers: (await import('./support/request')).requestHeaders,
}))

/**
 * The server action itself, as a form posts to it, on the embedded store in
 * memory: the configuration a fresh clone runs with (so the default rate limit).
 */
let joinWaitlist: JoinAction
let store: WaitlistStore

beforeAll(async () => {
  ;({ joinWaitlist, store } = await actionOnMemoryStore({ WAITLIST_RATE_LIMIT_PER_MINUTE: '' }))
})
beforeEach(() => void freshClient())
afterEach(() => vi.restoreAllMocks())

const idle: WaitlistState = { status: 'idle' }

function post(
  email: string,
  source = 'hero_section',
  extra: Record<string, string> = {},
): FormData {
  const form = new FormData()
  // What Next adds to a progressively enhanced post: the action must ignore it.
  form.set('$ACTION_ID_0123456789abcdef', '')
  form.set('source', source)
  form.set('email', email)
  for (const [name, value] of Object.entries(extra)) form.set(name, value)
  return form
}

describe('joinWaitlist', () => {
  it('joins a new address', async () => {
    const state = await joinWaitlist(idle, post('new.person@example.com'))
    expect(state.status).toBe('joined')
  })

  it('answers already joined for the same address in another case', async () => {
    await joinWaitlist(idle, post('case@example.com'))
    const state = await joinWaitlist(idle, post('CASE@Example.com', 'cta_section'))
    expect(state.status).toBe('already_joined')
  })

  it('gives every outcome its own submission id, so equal outcomes each show', async () => {
    const first = await joinWaitlist(idle, post('twice@example.com'))
    const second = await joinWaitlist(first, post('twice@example.com'))
    const third = await joinWaitlist(second, post('twice@example.com'))
    expect([first.status, second.status, third.status]).toEqual([
      'joined',
      'already_joined',
      'already_joined',
    ])
    expect('submissionId' in second && 'submissionId' in third).toBe(true)
    expect(second).not.toEqual(third)
  })

  it('refuses an invalid address and gives it back for the field', async () => {
    await expect(joinWaitlist(idle, post('not an address'))).resolves.toMatchObject({
      status: 'invalid',
      field: 'email',
      email: 'not an address',
    })
  })

  it('refuses an unknown source', async () => {
    await expect(joinWaitlist(idle, post('src@example.com', 'pricing'))).resolves.toMatchObject({
      status: 'invalid',
      field: 'source',
    })
  })
})

describe('the honeypot', () => {
  it('answers a filled honeypot exactly like a success and stores nothing', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const insert = vi.spyOn(store, 'insert')
    const bot = await joinWaitlist(idle, post('bot@example.com', 'hero_section', { website: 'x' }))
    const person = await joinWaitlist(idle, post('person@example.com'))
    expect(Object.keys(bot).sort()).toEqual(Object.keys(person).sort())
    expect(bot.status).toBe('joined')
    expect(insert).toHaveBeenCalledTimes(1)
    // Nothing was stored for the bot: the same address can still join.
    await expect(joinWaitlist(idle, post('bot@example.com'))).resolves.toMatchObject({
      status: 'joined',
    })
  })

  it('lets an empty honeypot through, as every real form sends it', async () => {
    const state = await joinWaitlist(
      idle,
      post('empty.pot@example.com', 'cta_section', { website: '' }),
    )
    expect(state.status).toBe('joined')
  })
})

describe('the rate limit', () => {
  it('refuses the eleventh post of a minute from one client, keeping the address, storing nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const client = freshClient()
    for (let i = 0; i < 10; i += 1) {
      const state = await joinWaitlist(
        idle,
        post(i % 2 ? `limit-${i}@example.com` : 'not an address'),
      )
      expect(state.status).not.toBe('rate_limited')
    }
    const insert = vi.spyOn(store, 'insert')
    const refused = await joinWaitlist(idle, post('Late@Example.com'))
    expect(refused).toMatchObject({ status: 'rate_limited', email: 'Late@Example.com' })
    await joinWaitlist(idle, post('later@example.com'))
    expect(insert).not.toHaveBeenCalled()
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toContain(`client=${client}`)

    // Another client is not affected.
    fromClient('203.0.113.99')
    await expect(joinWaitlist(idle, post('late@example.com'))).resolves.toMatchObject({
      status: 'joined',
    })
  })

  it('counts a client by the first x-forwarded-for address, whatever proxies follow', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const statuses: string[] = []
    for (let i = 0; i < 11; i += 1) {
      fromClient(`203.0.113.50, 10.0.0.${i}`)
      statuses.push((await joinWaitlist(idle, post('x'))).status)
    }
    expect(statuses.at(-1)).toBe('rate_limited')
    expect(statuses.filter((status) => status === 'rate_limited')).toHaveLength(1)
  })
})
