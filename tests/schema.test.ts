import { describe, expect, it } from 'vitest'
import { parseSignup } from '@/lib/waitlist/schema'

const form = (email: string, source = 'hero_section') => {
  const data = new FormData()
  data.set('email', email)
  data.set('source', source)
  return data
}

describe('a signup post', () => {
  it('takes every address <input type="email"> takes, trimmed and lower-cased', () => {
    for (const address of [
      'first!last@example.com',
      'ann@examplehost',
      "o'brien+tag@ex-ample.co.uk",
    ]) {
      expect(parseSignup(form(address))?.email).toBe(address)
    }
    expect(parseSignup(form('  Ann@Example.COM ', 'cta_section'))).toEqual({
      email: 'ann@example.com',
      source: 'cta_section',
    })
  })

  it('refuses what the browser refuses, an address over 254 characters, and an unknown form', () => {
    for (const address of [
      'ann',
      'ann@',
      'a b@example.com',
      'ann@-example.com',
      'ann@exa_mple.com',
      'ânn@example.com',
      '',
    ]) {
      expect(parseSignup(form(address)), address).toBeUndefined()
    }
    expect(
      parseSignup(form(`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`)),
    ).toBeUndefined()
    expect(parseSignup(form('ann@example.com', 'footer'))).toBeUndefined()
  })
})
