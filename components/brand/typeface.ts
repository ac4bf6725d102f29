import localFont from 'next/font/local'

// Not preloaded: Chromium holds the first frame for a preloaded font.
export const geist = localFont({
  src: './fonts/geist-latin-wght-normal.woff2',
  weight: '100 900',
  display: 'swap',
  preload: false,
  adjustFontFallback: false, // typeface-fallbacks.css fits each platform's face to Geist, not Arial alone
  variable: '--font-geist',
})
