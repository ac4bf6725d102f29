/**
 * Size bounds on what a signup may send, shared by the form, the schema and
 * the server's configuration. Checked before any other work.
 */

/** RFC 5321 caps a forward path at 254 characters; the table enforces the same. */
export const MAX_EMAIL_LENGTH = 254

/** The raw field, before trimming: room for stray spaces around a valid address, no more. */
export const MAX_EMAIL_INPUT_LENGTH = 320

/**
 * The whole form post, as Next.js reads it for a server action. A real post is
 * well under 2 kB (the address, the source and Next's hidden fields); 16 kB
 * leaves room for multipart overhead and still refuses padding before it is parsed.
 */
export const SUBMISSION_SIZE_LIMIT = '16kb'

/**
 * The honeypot: a field people never see or reach, which form-filling bots
 * tend to fill. Its name reads like a real field on purpose.
 */
export const HONEYPOT_FIELD = 'website'
