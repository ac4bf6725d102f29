import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WaitlistStore } from '@/lib/waitlist/store'
import { actionOnMemoryStore, type JoinAction } from './support/fresh-server'
import { fromClient } from './support/request'

vi.mock('next/headers', async () => ({
  headers: (await import('./support/request')).requestHeaders,
}))

/**
 * The ceiling on signups per minute for all clients together, at the action:
 * each post comes from a client address of its own, as a script forging
 * X-Forwarded-For sends them, so the per-client limit never bites.
 */
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

let clients = 0

function fromNewClient(): void {
  clients += 1
  fromClient(`198.51.100.${clients % 250}, forged-${clients}`)
}

async function post(joinWaitlist: JoinAction, email: string) {
  const form = new FormData()
  form.set('source', 'hero_section')
  form.set('email', email)
  return joinWaitlist({ status: 'idle' }, form)
}

/** Posts `count` signups, each from a new client, and returns their statuses. */
async function flood(joinWaitlist: JoinAction, count: number, tag: string): Promise<string[]> {
  const statuses: string[] = []
  for (let i = 0; i < count; i += 1) {
    fromNewClient()
    statuses.push((await post(joinWaitlist, `${tag}-${i}@example.com`)).status)
  }
  return statuses
}

async function serverWith(env: Record<string, string>) {
  vi.spyOn(console, 'info').mockImplementation(() => {})
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const { joinWaitlist, store } = await actionOnMemoryStore(env)
  const insert = vi.spyOn(store, 'insert')
  return {
    joinWaitlist,
    store,
    insert,
    warnings: () => warn.mock.calls.map(([line]) => String(line)),
  }
}

const alreadyStored = async (store: WaitlistStore, email: string) =>
  (await store.insert({ email, source: 'cta_section' })) === 'duplicate'

describe('the signup ceiling', () => {
  it('admits the ceiling from any clients, then refuses every one, keeping the address and storing nothing', async () => {
    const { joinWaitlist, store, insert, warnings } = await serverWith({
      WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '5',
    })
    expect(await flood(joinWaitlist, 5, 'early')).toEqual(Array(5).fill('joined'))

    fromNewClient()
    await expect(post(joinWaitlist, 'Late.Comer@Example.com')).resolves.toMatchObject({
      status: 'rate_limited',
      email: 'Late.Comer@Example.com',
    })
    expect(await flood(joinWaitlist, 20, 'late')).toEqual(Array(20).fill('rate_limited'))
    expect(insert).toHaveBeenCalledTimes(5)
    await expect(alreadyStored(store, 'late.comer@example.com')).resolves.toBe(false)

    // One line as the burst starts, naming the ceiling and its variable; none per refused post.
    expect(warnings()).toEqual([
      expect.stringMatching(
        /over this server's ceiling of 5 a minute \(WAITLIST_SIGNUPS_PER_MINUTE_CEILING\)/,
      ),
    ])
  })

  it("checks the client first, so one client over its own limit uses up no one else's share", async () => {
    const { joinWaitlist } = await serverWith({
      WAITLIST_RATE_LIMIT_PER_MINUTE: '2',
      WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '3',
    })
    fromClient('203.0.113.66')
    const statuses: string[] = []
    for (let i = 0; i < 6; i += 1)
      statuses.push((await post(joinWaitlist, `one-${i}@example.com`)).status)
    expect(statuses).toEqual(['joined', 'joined', ...Array(4).fill('rate_limited')])
    // Its four refused posts took nothing from the ceiling: one place is left for everyone else.
    expect(await flood(joinWaitlist, 2, 'others')).toEqual(['joined', 'rate_limited'])
  })

  it('admits again as the minute slides', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { joinWaitlist } = await serverWith({ WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '4' })
    expect(await flood(joinWaitlist, 6, 'first')).toEqual([
      ...Array(4).fill('joined'),
      'rate_limited',
      'rate_limited',
    ])
    // Half a minute into the next minute, half of the last one's four still count: two fit.
    vi.setSystemTime(Date.now() + 90_000)
    expect(await flood(joinWaitlist, 3, 'later')).toEqual(['joined', 'joined', 'rate_limited'])
    // After two quiet minutes the whole ceiling is free again.
    vi.setSystemTime(Date.now() + 120_000)
    expect(await flood(joinWaitlist, 5, 'fresh')).toEqual([
      ...Array(4).fill('joined'),
      'rate_limited',
    ])
  })

  it('logs the count refused once the burst has been quiet for a minute', async () => {
    const { joinWaitlist, warnings } = await serverWith({
      WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '2',
    })
    await flood(joinWaitlist, 2, 'admitted')
    vi.useFakeTimers()
    await flood(joinWaitlist, 7, 'burst')
    vi.advanceTimersByTime(30_000)
    await flood(joinWaitlist, 3, 'burst-more')
    // A minute after the first refusal, but only half a minute after the last: not over yet.
    vi.advanceTimersByTime(30_000)
    expect(warnings()).toHaveLength(1)
    vi.advanceTimersByTime(30_000)
    expect(warnings()).toHaveLength(2)
    expect(warnings()[1]).toMatch(/burst over refused=10 seconds=30$/)

    // The next flood is a new burst, with its own two lines.
    await flood(joinWaitlist, 4, 'next')
    vi.advanceTimersByTime(60_000)
    expect(warnings()).toHaveLength(4)
    expect(warnings()[3]).toMatch(/refused=\d+ seconds=0$/)
  })

  it('is off at 0', async () => {
    const { joinWaitlist, insert, warnings } = await serverWith({
      WAITLIST_SIGNUPS_PER_MINUTE_CEILING: '0',
    })
    expect(await flood(joinWaitlist, 40, 'open')).toEqual(Array(40).fill('joined'))
    expect(insert).toHaveBeenCalledTimes(40)
    expect(warnings()).toEqual([])
  })
})
