import { hostname, networkInterfaces } from 'node:os'
import type { NextConfig } from 'next'
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from 'next/constants'
import { withCompileHints } from './scripts/compile-hints'
import { devOrigins } from './lib/dev-origins'
import { indexingHeaders, localhostWarning } from './lib/seo'

// Next's CSP for pages without nonces, which keeps them static; a Vercel preview's toolbar loads from Vercel.
function securityHeaders(phase: string) {
  const dev = phase === PHASE_DEVELOPMENT_SERVER
  const preview = process.env.VERCEL_ENV === 'preview'
  /** The toolbar's hosts for a directive, on a preview; nothing elsewhere. */
  const toolbar = (...hosts: string[]) =>
    preview ? ` ${['https://vercel.live', ...hosts].join(' ')}` : ''
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ''}${toolbar()}`,
    `style-src 'self' 'unsafe-inline'${toolbar()}`,
    `img-src 'self' data: blob:${toolbar('https://vercel.com')}`,
    `font-src 'self'${toolbar('https://assets.vercel.com')}`,
    `connect-src 'self'${dev ? ' ws: wss:' : ''}${toolbar('wss://ws-us3.pusher.com')}`,
    `frame-src 'self'${toolbar()}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ]
  return [
    { key: 'Content-Security-Policy', value: csp.join('; ') },
    ...(dev
      ? []
      : [{ key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' }]),
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    {
      key: 'Permissions-Policy',
      value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
    },
    // For browsers older than `frame-ancestors`.
    { key: 'X-Frame-Options', value: 'DENY' },
  ]
}

export default function config(phase: string): NextConfig {
  // Read by the build and again by its compiler, a process that inherits the environment: said once.
  const warning =
    phase === PHASE_PRODUCTION_BUILD && !process.env.SITE_URL_WARNED && localhostWarning()
  if (warning) {
    console.warn(`⚠ ${warning}`)
    process.env.SITE_URL_WARNED = '1'
  }
  return withCompileHints({
    poweredByHeader: false,
    // `next dev` would log each server action call with its arguments: a visitor's address, unmasked.
    logging: { serverFunctions: false },
    // PGlite loads its WebAssembly from its own package folder at run time; pg has an optional native binding.
    serverExternalPackages: ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'pg'],
    experimental: {
      // Every build starts from the source: a poisoned build cache (Vercel keeps .next/cache) failed later builds.
      turbopackFileSystemCacheForBuild: false,
      // Each page's stylesheet is written into the page, so the first paint waits for no request.
      inlineCss: true,
      // A signup is an address and a source: anything bigger is refused before it is parsed.
      serverActions: { bodySizeLimit: '16kb' },
    },
    async headers() {
      return [{ source: '/:path*', headers: securityHeaders(phase) }, ...indexingHeaders()]
    },
    // Else the page at 127.0.0.1 or on a phone on the network would never hydrate in development.
    allowedDevOrigins:
      phase === PHASE_DEVELOPMENT_SERVER
        ? devOrigins(networkInterfaces(), hostname(), process.env.ALLOWED_DEV_ORIGINS)
        : undefined,
  })
}
