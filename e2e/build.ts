// The e2e suites' production build: `npm run build` with e2e/build-keys.ts set, then a stamp that
// e2e/bundle.spec.ts checks before trusting the build. `--reuse` keeps a build this script made, so
// `npm test` builds once for both browser suites.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { BUILD_KEYS, BUILD_KEYS_STAMP } from './build-keys'

const buildId = () => readFileSync('.next/BUILD_ID', 'utf8').trim()

// The stamp names the build beside it only while .next holds the build this script made.
if (process.argv.includes('--reuse') && existsSync(BUILD_KEYS_STAMP)) {
  const stamp = JSON.parse(readFileSync(BUILD_KEYS_STAMP, 'utf8'))
  if (stamp.buildId === buildId()) {
    console.log(
      `Reusing the end-to-end build ${stamp.buildId}: \`npx tsx e2e/build.ts\` makes a new one`,
    )
    process.exit(0)
  }
}

const build = spawnSync('npm', ['run', 'build'], {
  stdio: 'inherit',
  env: { ...process.env, ...BUILD_KEYS },
  shell: process.platform === 'win32',
})
if (build.status !== 0) process.exit(build.status ?? 1)
writeFileSync(
  BUILD_KEYS_STAMP,
  JSON.stringify({ buildId: buildId(), keys: Object.keys(BUILD_KEYS) }) + '\n',
)
