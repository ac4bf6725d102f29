'use client'

import { LazyMotion, MotionConfig, domAnimation, m } from 'framer-motion'
import { REVEAL_VISIBILITY_THRESHOLD } from '@/lib/site'

/**
 * Fades server-rendered content in the first time a tenth of it scrolls into
 * view. The `data-reveal` attribute lets CSS show it outright when script is
 * off or reduced motion is requested (see globals.css).
 */
export function Reveal({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <LazyMotion features={domAnimation} strict>
      <MotionConfig reducedMotion="user">
        <m.div
          data-reveal=""
          className={className}
          initial={{ opacity: 0, y: 24 }}
          whileInView={{ opacity: 1, y: 0 }}
          viewport={{ once: true, amount: REVEAL_VISIBILITY_THRESHOLD }}
          transition={{ duration: 0.6, ease: 'easeOut' }}
        >
          {children}
        </m.div>
      </MotionConfig>
    </LazyMotion>
  )
}
