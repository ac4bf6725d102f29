import { ACTION_HEADER } from 'next/dist/client/components/app-router-headers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  ACTION_DEADLINE_MS,
  ActionDeadlineError,
  installActionDeadline,
  NEXT_ACTION_HEADER,
} from '@/components/waitlist/action-deadline'

describe('the deadline on server actions', () => {
  it('knows the header Next marks an action request with', () => {
    // The one detail of Next's the deadline relies on: if this fails after an upgrade,
    // signups would have no deadline at all. Change NEXT_ACTION_HEADER to match.
    expect(NEXT_ACTION_HEADER).toBe(ACTION_HEADER)
  })

  describe('installed on a page', () => {
    let calls: { input: RequestInfo | URL; init?: RequestInit }[]
    let scope: { fetch: typeof fetch }

    beforeEach(() => {
      vi.useFakeTimers()
      calls = []
      // A server that never answers, unless the request is aborted.
      scope = {
        fetch: (input, init) => {
          calls.push({ input, init })
          return new Promise((_, reject) =>
            init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
          )
        },
      }
      installActionDeadline(scope)
    })
    afterEach(() => vi.useRealTimers())

    it('aborts an action that gets no answer in time, and not a moment sooner', async () => {
      const sent = scope.fetch('/', { method: 'POST', headers: { [NEXT_ACTION_HEADER]: 'abc' } })
      const outcome = sent.then(
        () => 'answered',
        (error: unknown) => error,
      )
      await vi.advanceTimersByTimeAsync(ACTION_DEADLINE_MS - 1)
      expect(calls[0]?.init?.signal?.aborted).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      const error = await outcome
      expect(error).toBeInstanceOf(ActionDeadlineError)
      expect((error as Error).message).toBe(
        `No answer from the server within ${ACTION_DEADLINE_MS / 1000} s`,
      )
    })

    it('leaves every other request alone', async () => {
      void scope.fetch('/page', { method: 'GET' })
      expect(calls[0]?.init).toEqual({ method: 'GET' })
      await vi.advanceTimersByTimeAsync(ACTION_DEADLINE_MS * 2)
      expect(calls).toHaveLength(1)
    })

    it('keeps an abort the caller asked for', async () => {
      const caller = new AbortController()
      const sent = scope.fetch('/', {
        headers: { [NEXT_ACTION_HEADER]: 'abc' },
        signal: caller.signal,
      })
      caller.abort(new Error('left the page'))
      await expect(sent).rejects.toThrow('left the page')
    })

    it('is installed once however often it is asked', () => {
      installActionDeadline(scope)
      scope.fetch('/', { headers: { [NEXT_ACTION_HEADER]: 'abc' } }).catch(() => {})
      // Installed twice, the request would carry two deadlines.
      expect(vi.getTimerCount()).toBe(1)
    })

    it('lets an answer through, and its timer go', async () => {
      const answered: { fetch: typeof fetch } = {
        fetch: () => Promise.resolve(new Response('ok')),
      }
      installActionDeadline(answered)
      const response = await answered.fetch('/', { headers: { [NEXT_ACTION_HEADER]: 'abc' } })
      expect(await response.text()).toBe('ok')
      expect(vi.getTimerCount()).toBe(0)
    })
  })
})
