import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { admitPost, identifyVisitor, normalise, visitorHeaders } from '@/lib/waitlist/visitor'

// A test that fails before its end leaves no fake clock to the next.
afterEach(() => vi.useRealTimers())

const forwarded = (value: string, extra: Record<string, string> = {}) =>
  new Headers({ 'x-forwarded-for': value, ...extra })

describe('who a visitor is', () => {
  it.each([
    // Behind N proxies that append, the entry N from the right, whatever the client put on the left.
    ['6.6.6.6, 203.0.113.9', 1, { address: '203.0.113.9', trusted: true }],
    ['6.6.6.6, 203.0.113.9, 10.0.0.2', 2, { address: '203.0.113.9', trusted: true }],
    // Not trusted with no proxy declared, or with fewer entries than proxies.
    ['6.6.6.6, 203.0.113.9', 0, { address: '6.6.6.6', trusted: false }],
    ['203.0.113.9', 2, { address: '203.0.113.9', trusted: false }],
    ['', 0, { address: undefined, trusted: false }],
  ])('with x-forwarded-for %j behind %i proxies, is %o', (header, proxies, visitor) => {
    const headers = header ? forwarded(header) : new Headers()
    expect(identifyVisitor(headers, proxies)).toEqual(visitor)
  })

  it("on Vercel, is the edge's own x-real-ip", () => {
    expect(
      identifyVisitor(forwarded('6.6.6.6', { 'x-real-ip': '198.51.100.4' }), 'vercel'),
    ).toEqual({ address: '198.51.100.4', trusted: true })
  })

  it('counts IPv6 by its /64 and IPv4-mapped addresses as IPv4, ports and zones dropped', () => {
    expect(normalise('2001:DB8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(normalise('[2001:db8:1:2:bbbb:cccc:dddd:eeee]:443')).toBe('2001:db8:1:2::/64')
    expect(normalise('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(normalise('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(normalise('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(normalise('::ffff:c000:0201')).toBe('192.0.2.1')
    expect(normalise('192.0.2.1:8080')).toBe('192.0.2.1')
    expect(normalise('unknown')).toBeUndefined()
  })
})

describe("the insert's headers", () => {
  const entry = { email: 'ann@example.com', source: 'hero_section' } as const

  it('name the visitor by a keyed hash, never the address, with the allowance', () => {
    const headers = visitorHeaders(
      entry,
      { address: '203.0.113.9', trusted: true },
      { perMinute: 10, hashSecret: 'k' },
    )
    expect(headers['x-waitlist-client']).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(JSON.stringify(headers)).not.toContain('203.0.113.9')
    expect(headers['x-waitlist-allowance']).toBe('10')
    expect(headers['x-waitlist-signature']).toBeUndefined()
  })

  it('are signed over the time, the trust, the visitor and the row', () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 })
    const secret = 's'.repeat(40)
    const headers = visitorHeaders(
      entry,
      { address: '203.0.113.9', trusted: true },
      { perMinute: 10, hashSecret: secret, signingSecret: secret },
    )
    const signed = [
      '1800000000',
      '1',
      headers['x-waitlist-client'],
      '10',
      entry.email,
      entry.source,
    ].join('\n')
    expect(headers['x-waitlist-signature']).toBe(
      `1800000000.1.${createHmac('sha256', secret).update(signed).digest('hex')}`,
    )
    // No address, no allowance: nothing to trust, and the signature still covers the row.
    expect(
      visitorHeaders(
        entry,
        { trusted: true },
        { perMinute: 10, hashSecret: secret, signingSecret: secret },
      )['x-waitlist-signature'],
    ).toMatch(/^1800000000\.0\./)
  })
})

describe("this server's first line", () => {
  it("admits a visitor perMinute posts in any 60 seconds, across a minute's edge too, and anyone else meanwhile", () => {
    vi.useFakeTimers({ now: Date.UTC(2030, 0, 1, 12, 0, 59, 500) })
    const visitor = { address: '198.51.100.1', trusted: false }
    expect(Array.from({ length: 3 }, () => admitPost(visitor, 3))).toEqual([true, true, true])
    vi.advanceTimersByTime(1000)
    // 3 × 59.5/60 of the last minute's posts are still inside the last 60 seconds.
    expect(admitPost(visitor, 3)).toBe(false)
    expect(admitPost({ address: '198.51.100.2', trusted: false }, 3)).toBe(true)
    vi.advanceTimersByTime(60_000)
    expect(admitPost(visitor, 3)).toBe(true)
    expect(admitPost(visitor, 0)).toBe(true)
  })
})
