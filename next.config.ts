import type { NextConfig } from 'next'
import { securityHeaders } from './lib/security-headers'
import { SUBMISSION_SIZE_LIMIT } from './lib/waitlist/limits'

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // PGlite loads its WebAssembly and data files from its own package folder at run time.
  serverExternalPackages: ['@electric-sql/pglite'],
  experimental: {
    // A signup is an address and a source: refuse anything bigger before it is parsed.
    serverActions: { bodySizeLimit: SUBMISSION_SIZE_LIMIT },
  },
  async headers() {
    return [{ source: '/:path*', headers: [...securityHeaders] }]
  },
}

export default nextConfig
