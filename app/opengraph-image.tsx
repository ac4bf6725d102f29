import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { ImageResponse } from 'next/og'
import { shareCardAlt, socialProof } from '@/lib/seo'
import { hero, seo, site } from '@/lib/site'

export const alt = shareCardAlt
export const size = { width: 1200, height: 630 }
export const contentType = 'image/png'

// Geist as TrueType, which the renderer reads, not the page's woff2.
const fonts = path.join(process.cwd(), 'components', 'brand', 'fonts')

/** The link preview, drawn at build time from the project's files. */
export default async function OpenGraphImage(): Promise<ImageResponse> {
  const [icon, regular, bold] = await Promise.all([
    readFile(path.join(process.cwd(), 'app', 'icon.svg')),
    readFile(path.join(fonts, 'Geist-Regular.ttf')),
    readFile(path.join(fonts, 'Geist-Bold.ttf')),
  ])
  const logo = `data:image/svg+xml;base64,${icon.toString('base64')}`
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: '72px 80px',
        fontFamily: 'Geist',
        color: 'white',
        backgroundColor: seo.themeColor,
        backgroundImage:
          'radial-gradient(60% 70% at 15% 0%, rgba(124,58,237,0.55), transparent), radial-gradient(50% 60% at 95% 25%, rgba(192,38,211,0.45), transparent)',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 20 }}>
        <img src={logo} width={64} height={64} alt="" />
        <span style={{ fontSize: 40, fontWeight: 700, letterSpacing: -1 }}>{site.name}</span>
      </div>
      <div style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ display: 'flex', fontSize: 28, color: '#ddd6fe' }}>{hero.eyebrow}</div>
        <div
          style={{
            display: 'flex',
            flexDirection: 'column',
            marginTop: 20,
            fontSize: 72,
            fontWeight: 700,
            lineHeight: 1.05,
            letterSpacing: -2.5,
          }}
        >
          <span>{hero.headline}</span>
          <span
            style={{
              backgroundImage: 'linear-gradient(90deg, #c4b5fd, #f0abfc)',
              backgroundClip: 'text',
              color: 'transparent',
            }}
          >
            {hero.headlineAccent}
          </span>
        </div>
      </div>
      <div
        style={{
          display: 'flex',
          alignSelf: 'flex-start',
          padding: '14px 28px',
          borderRadius: 999,
          border: '2px solid rgba(255,255,255,0.18)',
          backgroundColor: 'rgba(255,255,255,0.06)',
          fontSize: 32,
          fontWeight: 700,
        }}
      >
        {socialProof}
      </div>
    </div>,
    {
      ...size,
      fonts: [
        { name: 'Geist', data: regular, weight: 400, style: 'normal' },
        { name: 'Geist', data: bold, weight: 700, style: 'normal' },
      ],
    },
  )
}
