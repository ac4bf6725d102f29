import { describe, expect, it } from 'vitest'
import { createRateLimiter } from '@/lib/waitlist/memory-rate-limiter'

function clock(start = 1_000_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

const takeTimes = (take: () => string, times: number) => Array.from({ length: times }, () => take())

describe('the per-client rate limit', () => {
  it('admits the limit within a minute, then refuses, saying so once per burst', () => {
    const time = clock()
    const limiter = createRateLimiter({ perMinute: 3, now: time.now })
    expect(takeTimes(() => limiter.take('1.2.3.4'), 5)).toEqual([
      'admitted',
      'admitted',
      'admitted',
      'refused_first',
      'refused',
    ])
  })

  it('keeps clients apart', () => {
    const limiter = createRateLimiter({ perMinute: 1, now: clock().now })
    expect(limiter.take('a')).toBe('admitted')
    expect(limiter.take('b')).toBe('admitted')
    expect(limiter.take('a')).toBe('refused_first')
  })

  it('admits again a minute after a client stops', () => {
    const time = clock()
    const limiter = createRateLimiter({ perMinute: 2, now: time.now })
    takeTimes(() => limiter.take('a'), 2)
    expect(limiter.take('a')).toBe('refused_first')
    time.advance(2 * 60_000)
    expect(limiter.take('a')).toBe('admitted')
  })

  it('weighs the previous minute in, so the limit cannot be doubled across a boundary', () => {
    const time = clock()
    const limiter = createRateLimiter({ perMinute: 4, now: time.now })
    expect(takeTimes(() => limiter.take('a'), 4)).toEqual(Array(4).fill('admitted'))
    // Ten seconds into the next minute, five sixths of the last one's four still count.
    time.advance(70_000)
    expect(limiter.take('a')).toBe('refused_first')
    // Half-way through it, two of them still count, plus the refused attempt: one more fits.
    time.advance(20_000)
    expect(takeTimes(() => limiter.take('a'), 2)).toEqual(['admitted', 'refused_first'])
  })

  it('turns off at 0', () => {
    const limiter = createRateLimiter({ perMinute: 0, now: clock().now })
    expect(takeTimes(() => limiter.take('a'), 1000).every((v) => v === 'admitted')).toBe(true)
    expect(limiter.size).toBe(0)
  })

  it('keeps its memory bounded: the oldest clients are forgotten first', () => {
    const time = clock()
    const limiter = createRateLimiter({ perMinute: 1, maxClients: 100, now: time.now })
    limiter.take('first')
    for (let i = 0; i < 1000; i += 1) {
      time.advance(1)
      limiter.take(`client-${i}`)
    }
    expect(limiter.size).toBeLessThanOrEqual(100)
    // `first` was forgotten, so it starts afresh.
    expect(limiter.take('first')).toBe('admitted')
    expect(limiter.take('client-999')).toBe('refused_first')
  })

  it('forgets clients whose minutes have passed', () => {
    const time = clock()
    const limiter = createRateLimiter({ perMinute: 5, now: time.now })
    for (let i = 0; i < 50; i += 1) limiter.take(`old-${i}`)
    time.advance(3 * 60_000)
    limiter.take('new')
    expect(limiter.size).toBe(1)
  })
})
