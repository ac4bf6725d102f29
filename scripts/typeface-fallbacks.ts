/**
 * Writes components/brand/typeface-fallbacks.css: the faces the page's text is
 * set in until Geist arrives (or if it never does), one per platform's own
 * sans-serif, each scaled by capsize (`createFontStack`) from the fonts'
 * metrics so that its letters take Geist's width and its lines Geist's height:
 *   npm run fonts:fallbacks            (writes the file)
 *   npm run fonts:fallbacks -- --check (fails if the file is not what it would write)
 * Regular text (up to 549) and bold (550 up) have faces of their own, scaled
 * from each weight's metrics: Geist's bold is wider against its regular than
 * Roboto's or Arial's. Metrics come from @capsizecss/metrics where it has the
 * face, else from the font file itself (@capsizecss/unpack): Debian's
 * fonts-roboto-unhinted, fonts-liberation and fonts-dejavu-core. Arial and
 * Helvetica are not on Debian; Liberation Sans has Arial's widths in both
 * weights by design, as Arial has Helvetica's, so their bold is scaled from
 * Liberation Sans Bold. Windows, macOS and iOS all have Arial, first in the
 * stack; Android has Roboto; Linux Liberation Sans or DejaVu Sans.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { createFontStack, type FontMetrics } from '@capsizecss/core'
import arial from '@capsizecss/metrics/arial'
import helvetica from '@capsizecss/metrics/helvetica'
import { fromFile } from '@capsizecss/unpack/fs'

export const FALLBACKS_CSS = 'components/brand/typeface-fallbacks.css'
const DEBIAN = '/usr/share/fonts/truetype'

type Face = { regular: FontMetrics; bold: FontMetrics }

/** A face's metrics under the names `local()` finds it by. */
const named = (metrics: FontMetrics, fullName: string, postscriptName: string): FontMetrics => ({
  ...metrics,
  fullName,
  postscriptName,
})

async function faces(): Promise<{ geist: Face; fallbacks: Face[] }> {
  const file = (path: string) => fromFile(path)
  const liberationBold = await file(`${DEBIAN}/liberation/LiberationSans-Bold.ttf`)
  const geist = {
    regular: await file('components/brand/fonts/geist-latin-wght-normal.woff2'),
    bold: await file('components/brand/fonts/Geist-Bold.ttf'),
  }
  const roboto = `${DEBIAN}/roboto/unhinted/RobotoTTF`
  const fallbacks: Face[] = [
    { regular: arial, bold: named(liberationBold, 'Arial Bold', 'Arial-BoldMT') },
    { regular: helvetica, bold: named(liberationBold, 'Helvetica Bold', 'Helvetica-Bold') },
    {
      regular: await file(`${roboto}/Roboto-Regular.ttf`),
      bold: await file(`${roboto}/Roboto-Bold.ttf`),
    },
    {
      regular: await file(`${DEBIAN}/liberation/LiberationSans-Regular.ttf`),
      bold: liberationBold,
    },
    {
      regular: await file(`${DEBIAN}/dejavu/DejaVuSans.ttf`),
      bold: await file(`${DEBIAN}/dejavu/DejaVuSans-Bold.ttf`),
    },
  ]
  // One family per platform face, whatever name a weight's file gives it.
  for (const face of fallbacks) face.bold = { ...face.bold, familyName: face.regular.familyName }
  return { geist, fallbacks }
}

/** The stylesheet: each fallback's two weights, and Tailwind's sans stack with Geist first. */
export async function fallbacksCss(): Promise<string> {
  const { geist, fallbacks } = await faces()
  const stack = (weight: keyof Face, fontWeight: string) =>
    createFontStack(
      [{ ...geist[weight], familyName: 'Geist' }, ...fallbacks.map((face) => face[weight])],
      { fontFaceProperties: { fontWeight } },
    )
  const regular = stack('regular', '100 549')
  const bold = stack('bold', '550 900')
  const families = regular.fontFamily.split(', ').slice(1, fallbacks.length + 1)
  return [
    "/* Written by scripts/typeface-fallbacks.ts (npm run fonts:fallbacks) from the fonts' metrics: do not edit. */",
    regular.fontFaces,
    bold.fontFaces,
    '@theme {',
    `  --font-sans: var(--font-geist), ${families.join(', ')}, sans-serif;`,
    '}',
    '',
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const css = await fallbacksCss()
  if (process.argv.includes('--check')) {
    if ((await readFile(FALLBACKS_CSS, 'utf8')) !== css) {
      console.error(`${FALLBACKS_CSS} is not what the metrics give: run npm run fonts:fallbacks.`)
      process.exit(1)
    }
    console.log(`${FALLBACKS_CSS} is up to date.`)
  } else {
    await writeFile(FALLBACKS_CSS, css)
    console.log(`Wrote ${FALLBACKS_CSS}.`)
  }
}
