'use client'

import { inView } from 'framer-motion/dom'
import { useEffect } from 'react'
import { REVEAL_VISIBILITY_THRESHOLD } from '@/lib/site'

/**
 * Reveals each `data-reveal` section once a tenth of it is in view. One
 * observer serves every section, so the sections stay server-rendered with no
 * client boundary of their own. framer-motion decides when (`inView`, what its
 * `useInView` hook runs on); the CSS transition does the moving. The attribute
 * is set on the element directly: React rendered it as `hidden` and never
 * renders it again, so nothing puts it back.
 */
export function RevealOnScroll() {
  useEffect(
    () =>
      inView(
        '[data-reveal="hidden"]',
        (element) => {
          element.setAttribute('data-reveal', 'shown')
        },
        { amount: REVEAL_VISIBILITY_THRESHOLD },
      ),
    [],
  )
  return null
}
