import { describe, expect, it } from 'vitest'
import { clientAddress } from '@/lib/waitlist/client-address'

describe('clientAddress', () => {
  it('takes the first address of x-forwarded-for, the one the edge saw', () => {
    const headers = new Headers({ 'x-forwarded-for': ' 203.0.113.7 , 10.0.0.1, 10.0.0.2' })
    expect(clientAddress(headers)).toBe('203.0.113.7')
  })

  it('falls back to x-real-ip, then to nobody in particular', () => {
    expect(clientAddress(new Headers({ 'x-real-ip': '198.51.100.4' }))).toBe('198.51.100.4')
    expect(clientAddress(new Headers())).toBeUndefined()
    expect(clientAddress(new Headers({ 'x-forwarded-for': ' , ' }))).toBeUndefined()
  })

  it('bounds what a forged header can make the limiter keep', () => {
    expect(clientAddress(new Headers({ 'x-forwarded-for': 'x'.repeat(5000) }))).toHaveLength(64)
  })
})
