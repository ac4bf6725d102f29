/**
 * Signups that must never be stored, each with the answer the server must
 * give. Run against the action (tests/bad-input.test.ts) and mixed into the
 * load bench's traffic (bench/load.ts). Every field is a string, so each case
 * can also travel as a real multipart form post.
 */
export type BadInput = {
  name: string
  /** The form's fields, in order; a name may repeat. `source` is added unless `noSource`. */
  fields: [name: string, value: string][]
  /** Leave the form's own `source` out (a case that forges one brings its own). */
  noSource?: boolean
  /** The field the answer names: `email` gets "check your address", `source` the generic notice. */
  blames: 'email' | 'source'
  /** What the answer puts back in the field: the address as sent, cut to 320 characters. */
  keeps: string
}

const email = (value: string, name: string, keeps = value): BadInput => ({
  name,
  fields: [['email', value]],
  blames: 'email',
  keeps,
})

const source = (value: string, name: string): BadInput => ({
  name,
  fields: [
    ['email', 'forged.source@example.com'],
    ['source', value],
  ],
  noSource: true,
  blames: 'source',
  keeps: 'forged.source@example.com',
})

export const badInputs: BadInput[] = [
  email('', 'empty'),
  email('   ', 'only spaces'),
  email('\n\t\r', 'only line breaks and tabs'),
  email('ann.example.com', 'missing @'),
  email('ann@', 'nothing after @'),
  email('@example.com', 'nothing before @'),
  email('ann@bob@example.com', 'two @'),
  email('ann@@example.com', 'doubled @'),
  email('ann lee@example.com', 'inner space'),
  email('ann@exam ple.com', 'space in the domain'),
  email('ann@localhost', 'no dot in the domain'),
  email('ann@example.com.', 'trailing dot in the domain'),
  email('.ann@example.com', 'leading dot'),
  email('ann..lee@example.com', 'two dots in a row'),
  email('ann@-example.com', 'domain starting with a hyphen'),
  email('ann@example.123', 'numeric top-level domain'),
  email('ann@[127.0.0.1]', 'IP literal'),
  email('"ann lee"@example.com', 'quoted local part'),
  email(`${'a'.repeat(5000)}@example.com`, '5,000-character local part', 'a'.repeat(320)),
  email(`ann@${'d'.repeat(296)}.com`, '300-character domain'),
  email(`${'a'.repeat(64)}.${'b'.repeat(180)}@example.com`, '255 characters, one over the cap'),
  email("robert');drop table waitlist;--@example.com", 'SQL injection in the local part'),
  email("ann@example.com' OR '1'='1", 'SQL injection after the address'),
  email('ann@example.com; DELETE FROM waitlist', 'SQL statement after the address'),
  email('<script>alert(1)</script>@example.com', 'HTML script tag'),
  email('"><img src=x onerror=alert(1)>@example.com', 'HTML attribute break-out'),
  email('ann@example.com\r\nBcc: everyone@example.com', 'CRLF header injection'),
  email('ann@example.com\nX-Injected: 1', 'LF header injection'),
  email('ann\u0000@example.com', 'NUL in the local part'),
  email('ann@example.com\u0000', 'trailing NUL'),
  email('ann\u0007@example.com', 'BEL control character'),
  email('ann\u001b[31m@example.com', 'ANSI escape sequence'),
  email('ann\u007f@example.com', 'DEL character'),
  email('ann\t@example.com', 'inner tab'),
  email('ann@exa\u202emple.com', 'right-to-left override'),
  email('ann\u200b@example.com', 'zero-width space'),
  email('\u0430nn@example.com', 'Cyrillic look-alike letter'),
  email('😀@example.com', 'emoji'),
  email('ann@example.com,bob@example.com', 'comma-separated list'),
  email('ann@example.com;bob@example.com', 'semicolon-separated list'),
  email('ann@example.com bob@example.com', 'space-separated list'),
  email('javascript:alert(1)', 'javascript: URL'),
  email('javascript:alert(1)//@example.com', 'javascript: URL shaped like an address'),
  email('mailto:ann@example.com', 'mailto: URL'),
  email('ann%40example.com', 'percent-encoded @'),
  email('{"email":"ann@example.com"}', 'JSON where the address goes'),
  email('${7*7}@example.com', 'template injection'),
  source('pricing', 'unknown source'),
  source('', 'empty source'),
  source('HERO_SECTION', 'source in the wrong case'),
  source(' hero_section', 'source with a leading space'),
  source('hero_section\u0000', 'source with a NUL'),
  source('hero_section\r\nX-Injected: 1', 'source with CRLF'),
  source('hero_section,cta_section', 'two sources in one'),
  source("hero_section' OR '1'='1", 'SQL injection in the source'),
  {
    name: 'missing source field',
    fields: [['email', 'no.source@example.com']],
    noSource: true,
    blames: 'source',
    keeps: 'no.source@example.com',
  },
  { name: 'missing email field', fields: [], blames: 'email', keeps: '' },
  { name: 'missing every field', fields: [], noSource: true, blames: 'source', keeps: '' },
  {
    name: 'extra fields only near the email name',
    fields: [
      ['Email', 'near.name@example.com'],
      ['email[]', 'near.name@example.com'],
      ['e-mail', 'near.name@example.com'],
    ],
    blames: 'email',
    keeps: '',
  },
  {
    name: 'two email fields, the first one bad',
    fields: [
      ['email', 'not an address'],
      ['email', 'second.value@example.com'],
    ],
    blames: 'email',
    keeps: 'not an address',
  },
  {
    name: 'extra columns with a bad address',
    fields: [
      ['email', 'extra@columns'],
      ['id', '1'],
      ['created_at', '2020-01-01T00:00:00Z'],
      ['role', 'service_role'],
      ['__proto__', '{"admin":true}'],
    ],
    blames: 'email',
    keeps: 'extra@columns',
  },
  {
    name: 'a second source field after a forged one',
    fields: [
      ['email', 'second.source@example.com'],
      ['source', 'admin'],
      ['source', 'hero_section'],
    ],
    noSource: true,
    blames: 'source',
    keeps: 'second.source@example.com',
  },
]

/** The case as form fields, with the form's own `source` first unless the case removes it. */
export function corpusFields(input: BadInput, formSource = 'hero_section'): [string, string][] {
  return input.noSource ? input.fields : [['source', formSource], ...input.fields]
}
