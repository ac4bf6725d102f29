/**
 * The end-to-end suite's production build (`npm run test:e2e`): `npm run build`
 * with the Supabase settings of e2e/build-keys.ts set, then a stamp naming
 * the build, which e2e/bundle.spec.ts asks for before it trusts the build.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { BUILD_KEYS, BUILD_KEYS_STAMP } from './build-keys'

const build = spawnSync('npm', ['run', 'build'], {
  stdio: 'inherit',
  env: { ...process.env, ...BUILD_KEYS },
  shell: process.platform === 'win32',
})
if (build.status !== 0) process.exit(build.status ?? 1)
const buildId = readFileSync('.next/BUILD_ID', 'utf8').trim()
writeFileSync(BUILD_KEYS_STAMP, JSON.stringify({ buildId, keys: Object.keys(BUILD_KEYS) }) + '\n')
