/**
 * Full-page screenshots of a running site at phone, tablet and desktop widths:
 *   npm run screenshots -- [base URL, default http://localhost:3000] [output folder, default screenshots]
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { chromium } from '@playwright/test'
import { CHROMIUM_ARGS, findChromium } from '../tests/support/chromium'

const base = process.argv[2] ?? 'http://localhost:3000'
const outDir = process.argv[3] ?? 'screenshots'
const widths = [375, 768, 1440]
const pages = [
  { name: 'home', path: '/' },
  { name: 'not-found', path: '/no-such-page' },
]

await mkdir(outDir, { recursive: true })
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS })
try {
  // The page has one colour scheme (no dark theme), so one set of shots covers it.
  for (const width of widths) {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      reducedMotion: 'reduce',
    })
    const page = await context.newPage()
    for (const { name, path: route } of pages) {
      await page.goto(new URL(route, base).toString(), { waitUntil: 'networkidle' })
      const file = path.join(outDir, `${name}-${width}.png`)
      await page.screenshot({ path: file, fullPage: true })
      console.log(file)
    }
    await context.close()
  }
} finally {
  await browser.close()
}
