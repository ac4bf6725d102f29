import { afterEach, describe, expect, it, vi } from 'vitest'
import { log, maskEmail, maskEmails } from '@/lib/log'

afterEach(() => vi.restoreAllMocks())

describe('maskEmail', () => {
  it.each([
    ['anna@example.com', 'an***@example.com'],
    ['a@example.com', 'a***@example.com'],
    ['no-at-sign', 'no***'],
  ])('%s → %s', (address, masked) => {
    expect(maskEmail(address)).toBe(masked)
  })
})

describe('log', () => {
  it('never prints a full address, in fields or in causes', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    log.error('signup failed', {
      email: 'anna@example.com',
      cause: new Error('Key (lower(email))=(bob@example.org) already exists.'),
    })
    const line = String(spy.mock.calls[0]?.[0])
    expect(line).toContain('an***@example.com')
    expect(line).toContain('bo***@example.org')
    expect(line).not.toContain('anna@')
    expect(line).not.toContain('bob@')
  })

  it('masks addresses inside free text', () => {
    expect(maskEmails('to anna@example.com, from "bob@example.org"')).toBe(
      'to an***@example.com, from "bo***@example.org"',
    )
  })
})
