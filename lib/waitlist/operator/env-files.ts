import { createRequire } from 'node:module'

// A bundled CommonJS module whose named exports Node cannot see from an ES module: required.
const { loadEnvConfig } = createRequire(import.meta.url)('@next/env') as typeof import('@next/env')

/**
 * Loads the `.env` files of `dir` into `process.env` with Next's own loader,
 * so the commands read the files `next dev` reads, in its order
 * (`.env.development.local`, `.env.local`, `.env.development`, `.env`), or,
 * with NODE_ENV=production, those `next start` reads (`.env.production…`), or
 * under NODE_ENV=test those of a test run (no `.env.local`). The first file
 * to set a variable wins; a variable already in the environment beats them
 * all. Returns the files read, in that order.
 */
export function loadEnvFiles(dir: string): string[] {
  const dev = process.env.NODE_ENV !== 'production'
  const { loadedEnvFiles } = loadEnvConfig(dir, dev, { info: () => {}, error: console.error })
  return loadedEnvFiles.map((file) => file.path)
}
