import { createRequire } from 'node:module'

// A bundled CommonJS module whose named exports Node cannot see from an ES module: required.
const { loadEnvConfig } = createRequire(import.meta.url)('@next/env') as typeof import('@next/env')

/**
 * Loads the `.env` files of `dir` with Next's own loader, so the commands
 * read the files `next dev` reads, in its order (those of `next start` with
 * NODE_ENV=production); a variable already set wins. Returns the files read.
 */
export function loadEnvFiles(dir: string): string[] {
  const dev = process.env.NODE_ENV !== 'production'
  const { loadedEnvFiles } = loadEnvConfig(dir, dev, { info: () => {}, error: console.error })
  return loadedEnvFiles.map((file) => file.path)
}
