/**
 * Headers every response carries. The pages are static, so the policy sets no
 * `script-src`: a nonce would force every page to render per request, and
 * Next's inline bootstrap scripts must still run. What it does pin down:
 * nobody may frame the site, inject a `<base>`, point a form elsewhere or
 * load a plugin.
 */
const contentSecurityPolicy = [
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ')

/** Powerful features the page never uses, denied to it and to anything it embeds. */
const permissionsPolicy = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'browsing-topics=()',
].join(', ')

export const securityHeaders = [
  { key: 'Content-Security-Policy', value: contentSecurityPolicy },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: permissionsPolicy },
  // For browsers older than `frame-ancestors`.
  { key: 'X-Frame-Options', value: 'DENY' },
] as const
