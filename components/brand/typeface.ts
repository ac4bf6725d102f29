import localFont from 'next/font/local'

/**
 * Geist, the one face of the page and of its share card (components/brand/fonts,
 * under the OFL): its Latin letters in every weight, one variable file of 29 KB.
 * Not preloaded: Chromium holds the first frame for a preloaded font, and the
 * page's text would wait for it. Until it arrives the text is set in
 * next/font's fallback: Arial sized to Geist's metrics where the system has
 * Arial, its own sans-serif where it has not (Linux, Android).
 */
export const geist = localFont({
  src: './fonts/geist-latin-wght-normal.woff2',
  weight: '100 900',
  display: 'swap',
  preload: false,
  variable: '--font-geist',
})
