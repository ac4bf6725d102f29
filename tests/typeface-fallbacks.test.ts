import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { FALLBACKS_CSS, fallbacksCss } from '../scripts/typeface-fallbacks'

const DEBIAN_FONTS = [
  '/usr/share/fonts/truetype/roboto/unhinted',
  '/usr/share/fonts/truetype/liberation',
  '/usr/share/fonts/truetype/dejavu',
]
const missing = DEBIAN_FONTS.filter((dir) => !existsSync(dir))

test.skipIf(missing.length > 0)(
  `the fallback faces are the ones the fonts' metrics give${missing.length ? ` (skipped: no ${missing.join(', ')}; apt-get install fonts-roboto-unhinted fonts-liberation fonts-dejavu-core)` : ''}`,
  async () => {
    expect(await readFile(FALLBACKS_CSS, 'utf8')).toBe(await fallbacksCss())
  },
)
