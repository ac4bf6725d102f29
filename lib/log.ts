// The waitlist's server log, one line per event: addresses masked, a client's control characters gone.
const EMAIL_PATTERN = /[^\s"'<>(),;:=]*@[^\s"'<>(),;:=]*/g
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g

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
  // A flood is not a flood of lines: said once a minute, with a count of the repeats.
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
