import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { FALLBACKS_CSS, fallbacksCss } from '../scripts/typeface-fallbacks'

const FONT_DIRS = ['roboto/unhinted', 'liberation', 'dejavu'].map(
  (dir) => `/usr/share/fonts/truetype/${dir}`,
)
const missing = FONT_DIRS.filter((dir) => !existsSync(dir))

// CI installs the fonts (.ci/run): there, a missing one fails, naming its file.
test.skipIf(missing.length > 0 && !process.env.CI)(
  `the fallback faces are the ones the fonts' metrics give${missing.length ? ` (skipped: no ${missing.join(', ')}; apt-get install fonts-roboto-unhinted fonts-liberation fonts-dejavu-core)` : ''}`,
  async () => {
    expect(await readFile(FALLBACKS_CSS, 'utf8')).toBe(await fallbacksCss())
  },
)
