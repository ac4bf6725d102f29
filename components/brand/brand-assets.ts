import { readFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * Files the generated images (share card, Apple touch icon) draw with. They
 * are rendered at build time, where the project folder is the working
 * directory; nothing is fetched, so the build works offline.
 */
const root = process.cwd()
const fonts = path.join(root, 'components', 'brand', 'fonts')

/** The logo (app/icon.svg, the favicon) as a data URL for an `<img>` in an ImageResponse. */
export async function logoDataUrl(): Promise<string> {
  const svg = await readFile(path.join(root, 'app', 'icon.svg'))
  return `data:image/svg+xml;base64,${svg.toString('base64')}`
}

/**
 * Geist, the page's face (components/brand/typeface.ts), in the weights the
 * share card uses: its renderer reads TrueType, not the page's woff2.
 */
export async function shareCardFonts() {
  const [regular, bold] = await Promise.all([
    readFile(path.join(fonts, 'Geist-Regular.ttf')),
    readFile(path.join(fonts, 'Geist-Bold.ttf')),
  ])
  return [
    { name: 'Geist', data: regular, weight: 400 as const, style: 'normal' as const },
    { name: 'Geist', data: bold, weight: 700 as const, style: 'normal' as const },
  ]
}
