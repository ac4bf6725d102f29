import { z } from 'zod'
import { MAX_EMAIL_INPUT_LENGTH, WAITLIST_SOURCES } from './form-contract'

/** An address as `<input type="email">` takes it (the table's CHECK repeats the rule), trimmed and lower-cased. */
export const emailSchema = z
  .string()
  .max(MAX_EMAIL_INPUT_LENGTH)
  .trim()
  .toLowerCase()
  .max(254) // RFC 5321's cap, which the table enforces too
  .regex(z.regexes.html5Email)

export const sourceSchema = z.enum(WAITLIST_SOURCES)

const signupSchema = z.object({ email: emailSchema, source: sourceSchema })
export type WaitlistEntry = z.infer<typeof signupSchema>

export function parseSignup(form: FormData): WaitlistEntry | undefined {
  return signupSchema.safeParse({ email: form.get('email'), source: form.get('source') }).data
}
