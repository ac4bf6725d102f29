import { z } from 'zod'
import { WAITLIST_SOURCES } from '@/lib/site'

/** RFC 5321 caps a forward path at 254 characters; the table enforces the same. */
export const MAX_EMAIL_LENGTH = 254

/** Trims and lower-cases before checking, so `  Ann@Example.COM ` is stored as `ann@example.com`. */
export const emailSchema = z.string().trim().toLowerCase().max(MAX_EMAIL_LENGTH).pipe(z.email())

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
