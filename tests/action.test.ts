import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { WaitlistState } from '@/lib/waitlist/state'

/**
 * The server action itself, as a form posts to it, on the embedded store in
 * memory: the configuration a fresh clone runs with.
 */
let joinWaitlist: (previous: WaitlistState, form: FormData) => Promise<WaitlistState>

beforeAll(async () => {
  vi.stubEnv('WAITLIST_DATA_DIR', 'memory://')
  for (const name of ['NEXT_PUBLIC_SUPABASE_URL', 'SUPABASE_URL', 'VERCEL']) vi.stubEnv(name, '')
  ;({ joinWaitlist } = await import('@/lib/waitlist/actions'))
})
afterEach(() => vi.restoreAllMocks())

const idle: WaitlistState = { status: 'idle' }

function post(email: string, source = 'hero_section'): FormData {
  const form = new FormData()
  // What Next adds to a progressively enhanced post: the action must ignore it.
  form.set('$ACTION_ID_0123456789abcdef', '')
  form.set('source', source)
  form.set('email', email)
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
