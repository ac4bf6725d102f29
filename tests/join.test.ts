import { afterEach, describe, expect, it, vi } from 'vitest'
import { joinWith } from '@/lib/waitlist/join'
import { StoreError, type WaitlistStore } from '@/lib/waitlist/store'

afterEach(() => vi.restoreAllMocks())

function post(email: string): FormData {
  const form = new FormData()
  form.set('source', 'cta_section')
  form.set('email', email)
  return form
}

const failingStore: WaitlistStore = {
  description: 'a store that is down',
  insert: () => Promise.reject(new StoreError('connection refused by anna@example.com')),
}

describe('joinWith, when the store fails', () => {
  it('answers the generic error, keeps the address, and logs the cause once, masked', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const state = await joinWith(post('Anna@Example.com'), async () => failingStore)
    expect(state).toMatchObject({ status: 'error', email: 'Anna@Example.com' })
    expect(logged).toHaveBeenCalledTimes(1)
    const line = String(logged.mock.calls[0]?.[0])
    expect(line).toContain('signup failed')
    expect(line).toContain('connection refused')
    expect(line).toContain('source=cta_section')
    expect(line).not.toMatch(/anna@/i)
  })

  it('answers the generic error when the store cannot even be opened, and logs why', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const state = await joinWith(post('ann@example.com'), () =>
      Promise.reject(new Error('disk full')),
    )
    expect(state).toMatchObject({ status: 'error', email: 'ann@example.com' })
    expect(logged).toHaveBeenCalledOnce()
    expect(String(logged.mock.calls[0]?.[0])).toMatch(/signup failed .*cause=Error: disk full/)
  })

  it('does not touch the store for a refused address', async () => {
    const insert = vi.fn()
    const state = await joinWith(post('nope'), async () => ({
      description: 'spy',
      insert,
    }))
    expect(state).toMatchObject({ status: 'invalid', field: 'email', email: 'nope' })
    expect(insert).not.toHaveBeenCalled()
  })
})

describe('joinWith, when the database refuses over a limit', () => {
  it.each(['over_allowance', 'over_ceiling'] as const)(
    'answers %s as rate limited, keeping the address, and says which limit',
    async (refusal) => {
      const insert = vi.fn(async () => refusal)
      const refused = vi.fn()
      const client = { key: 'k'.repeat(43), perMinute: 10 }
      const state = await joinWith(
        post('Late@Example.com'),
        async () => ({ description: 'limited', insert }),
        { admit: () => true, client, refused },
      )
      expect(state).toMatchObject({ status: 'rate_limited', email: 'Late@Example.com' })
      // The visitor's key and allowance went with the insert, and the refusal was reported once.
      expect(insert).toHaveBeenCalledWith(
        { email: 'late@example.com', source: 'cta_section' },
        client,
      )
      expect(refused).toHaveBeenCalledExactlyOnceWith(refusal)
    },
  )

  it('asks the store nothing once this process has refused the visitor', async () => {
    const insert = vi.fn()
    const state = await joinWith(
      post('ann@example.com'),
      async () => ({ description: 'spy', insert }),
      { admit: () => false },
    )
    expect(state.status).toBe('rate_limited')
    expect(insert).not.toHaveBeenCalled()
  })
})
