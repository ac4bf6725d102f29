import { SHARE_CARD_SIZE, shareCardImage } from '@/components/brand/share-card'
import { seo } from '@/lib/site'

export const alt = seo.shareCardAlt
export const size = SHARE_CARD_SIZE
export const contentType = 'image/png'

export default function TwitterImage() {
  return shareCardImage()
}
