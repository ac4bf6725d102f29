import localFont from 'next/font/local'

/**
 * Geist, the one face of the page and of its share card: its Latin letters in
 * every weight, in one variable file of 29 KB that the page preloads. Until it
 * has arrived the text is set in a local face with Geist's metrics (next/font's
 * adjusted fallback), so nothing moves when it swaps in.
 */
export const geist = localFont({
  src: '../../node_modules/@fontsource-variable/geist/files/geist-latin-wght-normal.woff2',
  weight: '100 900',
  display: 'swap',
  variable: '--font-geist',
})
