/**
 * Server log lines for the waitlist. Addresses never appear in full: every
 * value is passed through {@link maskEmails} before it is printed.
 */
const EMAIL_PATTERN = /[^\s@"'<>(),;:=]{1,64}@[^\s@"'<>(),;:=]+/g

/** `anna@example.com` → `an***@example.com`. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@')
  if (at < 0) return address.length > 2 ? `${address.slice(0, 2)}***` : '***'
  return `${address.slice(0, Math.min(2, at))}***${address.slice(at)}`
}

export function maskEmails(text: string): string {
  return text.replace(EMAIL_PATTERN, (match) => maskEmail(match))
}

function describe(value: unknown): string {
  if (value instanceof Error) {
    const cause = value.cause === undefined ? '' : ` (cause: ${describe(value.cause)})`
    return `${value.name}: ${value.message}${cause}`
  }
  if (typeof value === 'string') return value
  return JSON.stringify(value) ?? String(value)
}

type Fields = Record<string, unknown>

function format(message: string, fields: Fields): string {
  const parts = Object.entries(fields).map(([key, value]) => `${key}=${describe(value)}`)
  return maskEmails([`[waitlist] ${message}`, ...parts].join(' '))
}

export const log = {
  info: (message: string, fields: Fields = {}) => console.info(format(message, fields)),
  warn: (message: string, fields: Fields = {}) => console.warn(format(message, fields)),
  error: (message: string, fields: Fields = {}) => console.error(format(message, fields)),
}
