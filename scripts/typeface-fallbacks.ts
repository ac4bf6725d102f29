/**
 * Writes components/brand/typeface-fallbacks.css: each platform's own sans-serif, scaled by
 * capsize to Geist's widths and line height, so the text keeps its lines until Geist arrives.
 *   npm run fonts:fallbacks            (writes the file)
 *   npm run fonts:fallbacks -- --check (fails if the file is not what it would write)
 * Windows, macOS and iOS reach Arial, Android Roboto, Linux Liberation Sans or DejaVu Sans.
 * Regular (up to 549) and bold (550 up) are scaled apart: Geist's bold is wider against its
 * regular than theirs. Metrics come from @capsizecss/metrics where it has the face, else from
 * the font file: Debian's fonts-roboto-unhinted, fonts-liberation and fonts-dejavu-core.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { createFontStack, type FontMetrics } from '@capsizecss/core'
import arial from '@capsizecss/metrics/arial'
import roboto from '@capsizecss/metrics/roboto'
import { fromFile } from '@capsizecss/unpack/fs'

export const FALLBACKS_CSS = 'components/brand/typeface-fallbacks.css'
const FONTS = '/usr/share/fonts/truetype'

type Face = { regular: FontMetrics; bold: FontMetrics }

async function metrics(file: string, debianPackage?: string): Promise<FontMetrics> {
  try {
    return await fromFile(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    throw new Error(`${file} is missing: it comes with Debian's ${debianPackage}`)
  }
}

async function faces(): Promise<{ geist: Face; fallbacks: Face[] }> {
  const liberation = (style: string) =>
    metrics(`${FONTS}/liberation/LiberationSans-${style}.ttf`, 'fonts-liberation')
  const dejavu = (name: string) => metrics(`${FONTS}/dejavu/${name}.ttf`, 'fonts-dejavu-core')
  const liberationBold = await liberation('Bold')
  const fallbacks: Face[] = [
    // Liberation Sans has Arial's widths in both weights by design.
    {
      regular: arial,
      bold: { ...liberationBold, fullName: 'Arial Bold', postscriptName: 'Arial-BoldMT' },
    },
    {
      regular: { ...roboto, fullName: 'Roboto' },
      bold: await metrics(
        `${FONTS}/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf`,
        'fonts-roboto-unhinted',
      ),
    },
    { regular: await liberation('Regular'), bold: liberationBold },
    { regular: await dejavu('DejaVuSans'), bold: await dejavu('DejaVuSans-Bold') },
  ]
  // One family per platform face, whatever name a weight's file gives it.
  for (const face of fallbacks) face.bold = { ...face.bold, familyName: face.regular.familyName }
  const geist = {
    regular: await metrics('components/brand/fonts/geist-latin-wght-normal.woff2'),
    bold: await metrics('components/brand/fonts/Geist-Bold.ttf'),
  }
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
