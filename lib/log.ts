/**
 * Server log lines for the waitlist, one line each. Addresses never appear in
 * full, and control characters a client sent (line breaks, terminal escapes)
 * never reach the log: every value is passed through {@link clean}.
 */
const EMAIL_PATTERN = /[^\s"'<>(),;:=]*@[^\s"'<>(),;:=]*/g
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g

/** `anna@example.com` → `an***@example.com`. */
function maskEmail(address: string): string {
  const at = address.lastIndexOf('@')
  return `${address.slice(0, Math.min(2, at))}***${address.slice(at)}`
}

export function clean(text: string): string {
  return text.replace(CONTROL, ' ').replace(EMAIL_PATTERN, maskEmail)
}

function describe(value: unknown): string {
  if (value instanceof Error) {
    const cause = value.cause === undefined ? '' : ` (cause: ${describe(value.cause)})`
    return `${value.name}: ${value.message}${cause}`
  }
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
}

type Fields = Record<string, unknown>

function format(message: string, fields: Fields): string {
  const parts = Object.entries(fields).map(([key, value]) => `${key}=${describe(value)}`)
  return clean([`[waitlist] ${message}`, ...parts].join(' '))
}

const lastWarned = new Map<string, { at: number; since: number }>()

export const log = {
  info: (message: string, fields: Fields = {}) => console.info(format(message, fields)),
  warn: (message: string, fields: Fields = {}) => console.warn(format(message, fields)),
  error: (message: string, fields: Fields = {}) => console.error(format(message, fields)),
  /** A warning said at most once a minute, with how many times it happened since: a flood is not a flood of lines. */
  warnOncePerMinute(message: string, fields: Fields = {}) {
    const now = Date.now()
    const last = lastWarned.get(message)
    if (last && now - last.at < 60_000) {
      last.since += 1
      return
    }
    lastWarned.set(message, { at: now, since: 0 })
    log.warn(message, last?.since ? { ...fields, repeated: last.since } : fields)
  },
}
