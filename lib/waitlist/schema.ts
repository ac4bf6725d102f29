import { z } from 'zod'
import { MAX_EMAIL_INPUT_LENGTH, WAITLIST_SOURCES, type WaitlistSource } from './form-contract'

/** An address as `<input type="email">` takes it (the table's CHECK repeats the rule), trimmed and lower-cased. */
export const emailSchema = z
  .string()
  .max(MAX_EMAIL_INPUT_LENGTH)
  .trim()
  .toLowerCase()
  .max(254) // RFC 5321's cap, which the table enforces too
  .regex(z.regexes.html5Email)

export const sourceSchema = z.enum(WAITLIST_SOURCES)

export type WaitlistEntry = { email: string; source: WaitlistSource }

export function parseSignup(form: FormData): WaitlistEntry | undefined {
  const source = sourceSchema.safeParse(form.get('source'))
  const email = emailSchema.safeParse(form.get('email'))
  return source.success && email.success ? { email: email.data, source: source.data } : undefined
}
