import { describe, expect, it } from 'vitest'
import { emailSchema, parseSignup } from '@/lib/waitlist/schema'

function form(fields: Record<string, string>): FormData {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

describe('emailSchema', () => {
  it.each(['ann@example.com', 'o.brien+news@mail.example.co.uk', "o'hara@example.ie"])(
    'accepts %s',
    (address) => {
      expect(emailSchema.parse(address)).toBe(address)
    },
  )

  it('trims and lower-cases before checking', () => {
    expect(emailSchema.parse('  Ann.Lee@Example.COM \n')).toBe('ann.lee@example.com')
  })

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['no @', 'ann.example.com'],
    ['no domain dot', 'ann@localhost'],
    ['two @', 'ann@@example.com'],
    ['inner space', 'ann lee@example.com'],
    ['a list', 'a@example.com,b@example.com'],
    ['right-to-left override', 'ann@exa\u202emple.com'],
    ['NUL', 'ann\u0000@example.com'],
  ])('refuses %s', (_name, address) => {
    expect(emailSchema.safeParse(address).success).toBe(false)
  })

  it('accepts 254 characters and refuses 255', () => {
    const domain = '@example.com'
    const at254 = `${'a'.repeat(64)}.${'b'.repeat(254 - 65 - domain.length)}${domain}`
    expect(at254).toHaveLength(254)
    expect(emailSchema.safeParse(at254).success).toBe(true)
    expect(emailSchema.safeParse(`c${at254}`).success).toBe(false)
  })
})

describe('parseSignup', () => {
  it('reads the address and the source', () => {
    expect(parseSignup(form({ email: ' Ann@Example.com', source: 'cta_section' }))).toEqual({
      ok: true,
      entry: { email: 'ann@example.com', source: 'cta_section' },
    })
  })

  it.each(['', 'footer', 'HERO_SECTION', 'hero_section '])('refuses the source %j', (source) => {
    expect(parseSignup(form({ email: 'ann@example.com', source }))).toEqual({
      ok: false,
      field: 'source',
    })
  })

  it('refuses a post without fields', () => {
    expect(parseSignup(new FormData())).toEqual({ ok: false, field: 'source' })
    expect(parseSignup(form({ source: 'hero_section' }))).toEqual({ ok: false, field: 'email' })
  })

  it('refuses a file where the address should be', () => {
    const data = form({ source: 'hero_section' })
    data.set('email', new Blob(['ann@example.com']), 'email.txt')
    expect(parseSignup(data)).toEqual({ ok: false, field: 'email' })
  })
})
