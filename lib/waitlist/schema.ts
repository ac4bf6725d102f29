import { z } from 'zod'
import { WAITLIST_SOURCES } from '@/lib/site'
import { MAX_EMAIL_INPUT_LENGTH, MAX_EMAIL_LENGTH } from './submission'

/**
 * Trims and lower-cases before checking, so `  Ann@Example.COM ` is stored as
 * `ann@example.com`. The raw length is capped first, so an oversized value is
 * refused before any pattern runs over it. The e-mail pattern admits only
 * ASCII letters, digits and `._'+-`, so control, bidirectional and other
 * invisible characters are refused with it.
 */
export const emailSchema = z
  .string()
  .max(MAX_EMAIL_INPUT_LENGTH)
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_LENGTH)
  .pipe(z.email())

/**
 * An address as {@link emailSchema} stores it, without the checks: trimmed
 * and lower-cased. For finding a stored address (`npm run waitlist -- remove`)
 * however it was typed, including one the checks would no longer accept.
 */
export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase()
}

export const sourceSchema = z.enum(WAITLIST_SOURCES)

export type WaitlistEntry = {
  email: string
  source: z.infer<typeof sourceSchema>
}

export type ParsedSignup =
  { ok: true; entry: WaitlistEntry } | { ok: false; field: 'email' | 'source' }

/** Reads the two fields the action accepts from a raw form post. */
export function parseSignup(form: FormData): ParsedSignup {
  const source = sourceSchema.safeParse(form.get('source'))
  if (!source.success) return { ok: false, field: 'source' }
  const email = emailSchema.safeParse(form.get('email'))
  if (!email.success) return { ok: false, field: 'email' }
  return { ok: true, entry: { email: email.data, source: source.data } }
}
