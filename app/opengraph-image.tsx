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
  // next/og reads Tailwind classes from `tw`; what it has no class for (gap, gradients) stays in style.
  return new ImageResponse(
    <div
      tw="flex h-full w-full flex-col justify-between px-20 py-[72px] text-white"
      style={{
        fontFamily: 'Geist',
        backgroundColor: seo.themeColor,
        backgroundImage:
          'radial-gradient(60% 70% at 15% 0%, rgba(124,58,237,0.55), transparent), radial-gradient(50% 60% at 95% 25%, rgba(192,38,211,0.45), transparent)',
      }}
    >
      <div tw="flex items-center" style={{ gap: 20 }}>
        <img src={logo} width={64} height={64} alt="" />
        <span tw="text-[40px] font-bold tracking-[-1px]">{site.name}</span>
      </div>
      <div tw="flex flex-col">
        <div tw="flex text-[28px] text-[#ddd6fe]">{hero.eyebrow}</div>
        <div tw="mt-5 flex flex-col text-[72px] leading-[1.05] font-bold tracking-[-2.5px]">
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
      <div tw="flex self-start rounded-[999px] border-2 border-[rgba(255,255,255,0.18)] bg-[rgba(255,255,255,0.06)] px-7 py-[14px] text-[32px] font-bold">
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
