'use client'

import { inView } from 'framer-motion/dom'
import { useEffect } from 'react'
import { REVEAL_VISIBILITY_THRESHOLD } from '@/lib/site'

/**
 * Hides each `data-reveal` section that is below the fold when the scripts
 * run, and reveals it once a tenth of it is in view. A section on screen, or
 * scrolled past before the scripts came, is left as served: nothing a visitor
 * can see ever disappears. Where each section is comes from an
 * IntersectionObserver's first report, which the browser makes with the frame
 * it lays out anyway, so the scripts force no layout of their own. One
 * observer serves every section, so the sections stay server-rendered with no
 * client boundary of their own. framer-motion decides when (`inView`, what
 * its `useInView` hook runs on); the CSS transition does the moving.
 */
export function RevealOnScroll() {
  useEffect(() => {
    let stop = () => {}
    const fold = new IntersectionObserver((entries) => {
      fold.disconnect()
      const belowTheFold = entries
        .filter(({ boundingClientRect, rootBounds }) => {
          return boundingClientRect.top >= (rootBounds?.height ?? window.innerHeight)
        })
        .map(({ target }) => target)
      belowTheFold.forEach((section) => section.setAttribute('data-reveal', 'hidden'))
      stop = inView(
        belowTheFold,
        (section) => {
          section.setAttribute('data-reveal', 'shown')
        },
        { amount: REVEAL_VISIBILITY_THRESHOLD },
      )
    })
    document.querySelectorAll('[data-reveal]').forEach((section) => fold.observe(section))
    return () => {
      fold.disconnect()
      stop()
    }
  }, [])
  return null
}
