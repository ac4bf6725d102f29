/**
 * The hero's glow as one small image: the two radial gradients it was drawn
 * with, over the ink ground, rendered by Chromium at a few dozen pixels, for
 * the browser to scale to the hero's size (a gradient in percentages scales
 * with its box, so the picture is the same at any size). The canvas writes
 * its PNG with an alpha channel the opaque picture does not need; sharp
 * writes the same pixels as RGB, filtered row by row, in two thirds of the
 * bytes: in the page's stylesheet, which brotli cannot shrink, that is what
 * keeps the document within one round trip (docs/performance.md).
 *   npx tsx scripts/hero-glow.ts [width] [height]
 * Prints the data URL that app/globals.css holds.
 */
import { chromium } from '@playwright/test'
import sharp from 'sharp'
import { CHROMIUM_ARGS, findChromium } from '../tests/support/chromium'

export const GLOW =
  '#0b0616 radial-gradient(60% 50% at 20% 0%, rgba(124,58,237,0.45), transparent), ' +
  'radial-gradient(50% 45% at 90% 20%, rgba(192,38,211,0.35), transparent)'

const [width = 32, height = 20] = process.argv.slice(2)
const [w, h] = [Number(width), Number(height)]
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS })
try {
  // Drawn ten times larger, then averaged down: the gradients' dithering cancels out, and what
  // is scaled up again on the page is smooth.
  const page = await browser.newPage({ viewport: { width: w * 10, height: h * 10 } })
  const background = GLOW.replace(/^(#\w+) (.*)$/, '$2, $1')
  await page.setContent(
    `<body style="margin:0"><div style="width:${w * 10}px;height:${h * 10}px;background:${background}"></div>`,
  )
  const png = (await page.locator('div').screenshot()).toString('base64')
  const canvasPng = await page.evaluate(
    async ({ png, w, h }) => {
      const image = new Image()
      image.src = `data:image/png;base64,${png}`
      await image.decode()
      const canvas = Object.assign(document.createElement('canvas'), { width: w, height: h })
      const context = canvas.getContext('2d')!
      context.imageSmoothingQuality = 'high'
      context.drawImage(image, 0, 0, w, h)
      return canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '')
    },
    { png, w, h },
  )
  const rgb = await sharp(Buffer.from(canvasPng, 'base64'))
    .removeAlpha()
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer()
  const url = `data:image/png;base64,${rgb.toString('base64')}`
  console.log(url)
  console.error(`${url.length} characters`)
} finally {
  await browser.close()
}
