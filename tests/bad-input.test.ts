import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest'
import { noticeFor, notices } from '@/lib/waitlist/notice'
import type { WaitlistOutcome } from '@/lib/waitlist/state'
import type { WaitlistStore } from '@/lib/waitlist/store'
import { badInputs, corpusFields } from './bad-input-corpus'
import { actionOnMemoryStore, stopServer, type JoinAction } from './support/fresh-server'

vi.mock('next/headers', async () => ({
  headers: (await import('./support/request')).requestHeaders,
}))

/**
 * Every case of the bad-input corpus, posted to the action on the embedded
 * store: each gets the answer the case names (the field at fault, the notice,
 * the address it sent put back), the store is never asked, and the action
 * never throws.
 */
let joinWaitlist: JoinAction
let insert: MockInstance<WaitlistStore['insert']>

beforeAll(async () => {
  // One client posts the whole corpus: the limit is not what is under test here.
  const server = await actionOnMemoryStore({ WAITLIST_RATE_LIMIT_PER_MINUTE: '0' })
  joinWaitlist = server.joinWaitlist
  insert = vi.spyOn(server.store, 'insert')
})
afterAll(async () => {
  await stopServer()
  vi.unstubAllEnvs()
})

function formOf(fields: [string, string][]): FormData {
  const form = new FormData()
  form.append('$ACTION_ID_0123456789abcdef', '')
  for (const [name, value] of fields) form.append(name, value)
  return form
}

describe('the bad-input corpus', () => {
  it.each(badInputs.map((input) => [input.name, input] as const))(
    'refuses %s with its answer, without asking the store',
    async (_name, input) => {
      const state = await joinWaitlist({ status: 'idle' }, formOf(corpusFields(input)))
      expect(state).toEqual({
        status: 'invalid',
        field: input.blames,
        email: input.keeps,
        submissionId: expect.any(String),
      })
      expect(noticeFor(state as WaitlistOutcome)).toBe(
        input.blames === 'email' ? notices.invalidEmail : notices.failure,
      )
      expect(insert).not.toHaveBeenCalled()
    },
  )

  it('still serves a good signup after the whole corpus, through the store it never asked', async () => {
    const state = await joinWaitlist(
      { status: 'idle' },
      formOf([
        ['source', 'cta_section'],
        ['email', 'after.corpus@example.com'],
      ]),
    )
    expect(state.status).toBe('joined')
    expect(insert).toHaveBeenCalledExactlyOnceWith(
      { email: 'after.corpus@example.com', source: 'cta_section' },
      undefined,
    )
  })
})
