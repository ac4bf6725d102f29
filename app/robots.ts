import type { MetadataRoute } from 'next'
import { robotsRules } from '@/lib/indexing'

export default function robots(): MetadataRoute.Robots {
  return robotsRules()
}
