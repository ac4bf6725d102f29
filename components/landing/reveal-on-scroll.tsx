'use client'

import { inView } from 'framer-motion/dom'
import { useEffect } from 'react'
import { REVEAL_VISIBILITY_THRESHOLD } from '@/lib/site'

/**
 * Hides each `data-reveal` section that is below the fold when the scripts
 * run, and reveals it once a tenth of it is in view. A section on screen, or
 * scrolled past before the scripts came, is left as served: nothing a visitor
 * can see ever disappears. One observer serves every section, so the sections
 * stay server-rendered with no client boundary of their own. framer-motion
 * decides when (`inView`, what its `useInView` hook runs on); the CSS
 * transition does the moving. The attribute is set on the element directly:
 * React rendered it and never renders it again, so nothing puts it back.
 */
export function RevealOnScroll() {
  useEffect(() => {
    const belowTheFold = [...document.querySelectorAll('[data-reveal]')].filter(
      (section) => section.getBoundingClientRect().top >= window.innerHeight,
    )
    belowTheFold.forEach((section) => section.setAttribute('data-reveal', 'hidden'))
    return inView(
      belowTheFold,
      (section) => {
        section.setAttribute('data-reveal', 'shown')
      },
      { amount: REVEAL_VISIBILITY_THRESHOLD },
    )
  }, [])
  return null
}
