import { readFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * Files the generated images (share card, Apple touch icon) draw with. They
 * are rendered at build time, where the project folder is the working
 * directory; nothing is fetched, so the build works offline.
 */
const root = process.cwd()
const geist = path.join(root, 'node_modules', 'geist', 'dist', 'fonts', 'geist-sans')

/** The logo (app/icon.svg, the favicon) as a data URL for an `<img>` in an ImageResponse. */
export async function logoDataUrl(): Promise<string> {
  const svg = await readFile(path.join(root, 'app', 'icon.svg'))
  return `data:image/svg+xml;base64,${svg.toString('base64')}`
}

/**
 * Geist, the page's face (components/brand/typeface.ts), in the weights the
 * share card uses. The card's renderer reads TrueType, not the page's woff2.
 */
export async function shareCardFonts() {
  const [regular, bold] = await Promise.all([
    readFile(path.join(geist, 'Geist-Regular.ttf')),
    readFile(path.join(geist, 'Geist-Bold.ttf')),
  ])
  return [
    { name: 'Geist', data: regular, weight: 400 as const, style: 'normal' as const },
    { name: 'Geist', data: bold, weight: 700 as const, style: 'normal' as const },
  ]
}
