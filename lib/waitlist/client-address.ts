/**
 * Who is signing up, for the rate limits: the first address in
 * `x-forwarded-for`. On Vercel that header is set by the platform and a
 * client cannot forge it; `next start` fills it from the connection when no
 * proxy did, and `x-real-ip` covers proxies that set only that. Undefined
 * when neither names anyone.
 */
export function clientAddress(headers: Headers): string | undefined {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim()
  if (forwarded) return forwarded.slice(0, 64)
  return headers.get('x-real-ip')?.trim().slice(0, 64) || undefined
}
