import { ImageResponse } from 'next/og'
import { logoDataUrl } from '@/components/brand/share-card'
import { seo } from '@/lib/site'

export const size = { width: 180, height: 180 }
export const contentType = 'image/png'

/** The favicon's mark as iOS's home-screen PNG; iOS rounds the corners, so the ground runs to the edges. */
export default async function AppleIcon() {
  const logo = await logoDataUrl()
  return new ImageResponse(
    <div style={{ display: 'flex', width: '100%', height: '100%', background: seo.themeColor }}>
      <img src={logo} width={size.width} height={size.height} alt="" />
    </div>,
    size,
  )
}
