import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { WaitlistStore } from '@/lib/waitlist/store'
import { badInputs, corpusFields } from './bad-input-corpus'
import { actionOnMemoryStore, type JoinAction } from './support/fresh-server'

vi.mock('next/headers', async () => ({
  headers: (await import('./support/request')).requestHeaders,
}))

/**
 * Every case of the bad-input corpus, posted to the action on the embedded
 * store: each gets a clear answer naming the field at fault, none reaches the
 * store, and the action never throws.
 */
let joinWaitlist: JoinAction
let store: WaitlistStore
const inserted: unknown[] = []

beforeAll(async () => {
  // One client posts the whole corpus: the limit is not what is under test here.
  ;({ joinWaitlist, store } = await actionOnMemoryStore({ WAITLIST_RATE_LIMIT_PER_MINUTE: '0' }))
  const insert = store.insert.bind(store)
  vi.spyOn(store, 'insert').mockImplementation((entry) => {
    inserted.push(entry)
    return insert(entry)
  })
})
afterAll(() => vi.unstubAllEnvs())

function formOf(fields: [string, string][]): FormData {
  const form = new FormData()
  form.append('$ACTION_ID_0123456789abcdef', '')
  for (const [name, value] of fields) form.append(name, value)
  return form
}

describe('the bad-input corpus', () => {
  it('has at least 40 cases, each named once', () => {
    expect(badInputs.length).toBeGreaterThanOrEqual(40)
    expect(new Set(badInputs.map((input) => input.name)).size).toBe(badInputs.length)
  })

  it.each(badInputs.map((input) => [input.name, input] as const))(
    'refuses %s, naming the field, without touching the store',
    async (_name, input) => {
      const state = await joinWaitlist({ status: 'idle' }, formOf(corpusFields(input)))
      expect(state).toMatchObject({ status: 'invalid', field: input.blames })
      expect(inserted).toEqual([])
    },
  )

  it('still serves a good signup after the whole corpus', async () => {
    const state = await joinWaitlist(
      { status: 'idle' },
      formOf([
        ['source', 'cta_section'],
        ['email', 'after.corpus@example.com'],
      ]),
    )
    expect(state.status).toBe('joined')
    expect(inserted).toEqual([{ email: 'after.corpus@example.com', source: 'cta_section' }])
  })
})
