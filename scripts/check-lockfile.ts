/**
 * Fails when package-lock.json lacks an entry for any optional dependency of a
 * locked package: the native binaries other platforms need (`@next/swc-*`,
 * `@tailwindcss/oxide-*`, …). `npm ci` refuses such a lockfile, and a clone on
 * macOS or Windows would miss its binary. It happens when the registry had no
 * such binary for the version chosen: pin that package to the newest release
 * whose every platform binary exists (see "Upgrading a dependency" in docs/development.md).
 *   node scripts/check-lockfile.ts [package-lock.json]
 * Reads the file only; needs no network and no installed packages.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

type LockedPackage = { version?: string; optionalDependencies?: Record<string, string> }
export type Lockfile = { packages?: Record<string, LockedPackage> }

export type MissingEntry = { dependency: string; range: string; wantedBy: string }

/**
 * Where Node would find `dependency` from the package at `from`: its own
 * node_modules, then each enclosing one up to the root, as npm lays them out.
 */
function resolves(packages: Record<string, LockedPackage>, from: string, dependency: string) {
  for (let dir = from; ;) {
    if (packages[`${dir ? `${dir}/` : ''}node_modules/${dependency}`]) return true
    if (!dir) return false
    const parent = dir.lastIndexOf('/node_modules/')
    dir = parent < 0 ? '' : dir.slice(0, parent)
  }
}

/** Every optional dependency some locked package declares that the lockfile has no entry for. */
export function missingOptionalEntries(lock: Lockfile): MissingEntry[] {
  const packages = lock.packages ?? {}
  const missing: MissingEntry[] = []
  for (const [location, locked] of Object.entries(packages)) {
    for (const [dependency, range] of Object.entries(locked.optionalDependencies ?? {})) {
      if (!resolves(packages, location, dependency)) {
        const name = location.slice(location.lastIndexOf('node_modules/') + 13) || 'the project'
        missing.push({ dependency, range, wantedBy: `${name}@${locked.version ?? '?'}` })
      }
    }
  }
  return missing
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = path.resolve(process.argv[2] ?? 'package-lock.json')
  const lock = JSON.parse(readFileSync(file, 'utf8')) as Lockfile
  const missing = missingOptionalEntries(lock)
  if (missing.length === 0) {
    console.log(`${path.basename(file)}: every optional platform package is locked`)
  } else {
    console.error(
      `${file} has no entry for ${missing.length} optional package(s), so \`npm ci\` refuses it ` +
        `and other platforms miss their binaries:`,
    )
    for (const { dependency, range, wantedBy } of missing)
      console.error(`  ${dependency}@${range} (wanted by ${wantedBy})`)
    console.error(
      'Pin the package that wants them to the newest release whose every platform binary is on ' +
        'the registry (`npm view <binary>@<version>`), then `npm install` (docs/development.md: Upgrading a dependency).',
    )
    process.exitCode = 1
  }
}
