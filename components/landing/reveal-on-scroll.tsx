'use client'

import { inView } from 'framer-motion/dom'
import { useEffect } from 'react'
import { REVEAL_VISIBILITY_THRESHOLD } from '@/lib/site'

/** Hides each `data-reveal` section that is below the fold when the scripts run, until it scrolls into view. */
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
