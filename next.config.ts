import { hostname, networkInterfaces } from 'node:os'
import type { NextConfig } from 'next'
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants'
import { securityHeaders } from './lib/security-headers'
import { SUBMISSION_SIZE_LIMIT } from './lib/waitlist/submission'
import { indexingHeaders } from './lib/indexing'
import { DEV_ORIGINS_VAR, devOrigins } from './lib/dev-origins'

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // `next dev` would log each server action call with its arguments: a visitor's address, unmasked.
  logging: { serverFunctions: false },
  // PGlite loads its WebAssembly and data files from its own package folder at run time.
  // proper-lockfile keeps one registry of held locks per process, and lets go of them on exit:
  // one copy, not one per server bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'proper-lockfile'],
  experimental: {
    // Every build starts from the source: a poisoned Turbopack build cache (experimental; Vercel
    // keeps .next/cache across deploys) failed each later build. See docs/deploying.md.
    turbopackFileSystemCacheForBuild: false,
    // Next writes each page's stylesheet into it while rendering, prerendered or not, so on every
    // host the first paint waits for no stylesheet request. Experimental: see docs/performance.md.
    inlineCss: true,
    // A signup is an address and a source: refuse anything bigger before it is parsed.
    serverActions: { bodySizeLimit: SUBMISSION_SIZE_LIMIT },
  },
  // Security headers everywhere; on a preview build (VERCEL_ENV at build time), noindex too.
  async headers() {
    return [{ source: '/:path*', headers: [...securityHeaders] }, ...indexingHeaders()]
  },
}

export default function config(phase: string): NextConfig {
  if (phase !== PHASE_DEVELOPMENT_SERVER) return nextConfig
  // Next's dev server serves its scripts to localhost alone unless told otherwise, so the page
  // at 127.0.0.1 or at this machine's LAN address would never hydrate. Read at each start.
  return {
    ...nextConfig,
    allowedDevOrigins: devOrigins(networkInterfaces(), hostname(), process.env[DEV_ORIGINS_VAR]),
  }
}
