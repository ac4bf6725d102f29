import type { NextConfig } from 'next'
import { indexingHeaders } from './lib/indexing'

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // PGlite loads its WebAssembly and data files from its own package folder at run time.
  serverExternalPackages: ['@electric-sql/pglite'],
  // Read when the build runs: Vercel builds each environment with its own VERCEL_ENV.
  async headers() {
    return indexingHeaders()
  },
}

export default nextConfig
