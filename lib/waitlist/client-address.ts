/**
 * Who is signing up, for the rate limits: the first address in
 * `x-forwarded-for`, which Vercel's edge sets and `next start` fills from the
 * connection when no proxy did; `x-real-ip` for proxies that set only that.
 */
export function clientAddress(headers: Headers): string | undefined {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim()
  if (forwarded) return forwarded.slice(0, 64)
  return headers.get('x-real-ip')?.trim().slice(0, 64) || undefined
}
