/** The Chromium the end-to-end tests, the benches and the scripts drive, and the flags they start it with. */
import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'

/** Flags that keep a headless Chromium quiet on a machine with no network but loopback. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Chromium as the environment names it, else the system's, else Playwright's own. */
export function findChromium(): string | undefined {
  const fromEnv = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE
  if (fromEnv) {
    if (!existsSync(fromEnv))
      throw new Error(`PLAYWRIGHT_CHROMIUM_EXECUTABLE points at ${fromEnv}, which does not exist.`)
    return fromEnv
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  if (existsSync(chromium.executablePath())) return undefined
  throw new Error(
    [
      'No Chromium found for the end-to-end tests. Any one of these works:',
      '  - install the system browser: sudo apt-get install chromium   (Debian/Ubuntu)',
      '  - let Playwright fetch its own: npx playwright install chromium',
      '  - point PLAYWRIGHT_CHROMIUM_EXECUTABLE at a Chromium or Chrome binary',
    ].join('\n'),
  )
}
