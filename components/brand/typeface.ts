import localFont from 'next/font/local'

/**
 * Geist, the one face of the page and of its share card (components/brand/fonts,
 * under the OFL): its Latin letters in every weight, one variable file of 29 KB.
 * Not preloaded: Chromium holds the first frame for a preloaded font, and the
 * page's text would wait for it. Until it arrives the text is set in the
 * platform's own sans-serif, scaled to Geist's metrics so that every line
 * breaks where Geist's does (typeface-fallbacks.css, written from the fonts'
 * metrics by scripts/typeface-fallbacks.ts); next/font's own fallback, Arial
 * alone, would leave Android and Linux unadjusted.
 */
export const geist = localFont({
  src: './fonts/geist-latin-wght-normal.woff2',
  weight: '100 900',
  display: 'swap',
  preload: false,
  adjustFontFallback: false,
  variable: '--font-geist',
})
