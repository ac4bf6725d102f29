'use client'

import { useEffect, useRef, useState } from 'react'
import { REVEAL_VISIBILITY_THRESHOLD } from '@/lib/site'

/**
 * Fades server-rendered content in the first time a tenth of it scrolls into
 * view. The motion itself is a CSS transition keyed on `data-reveal` (see
 * globals.css), which also shows the content outright when script is off or
 * reduced motion is requested; this component only watches for the scroll.
 */
export function Reveal({ children, className }: { children: React.ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null)
  const [shown, setShown] = useState(false)

  useEffect(() => {
    const element = ref.current
    if (!element) return
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry?.isIntersecting) return
        setShown(true)
        observer.disconnect()
      },
      { threshold: REVEAL_VISIBILITY_THRESHOLD },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  return (
    <div ref={ref} data-reveal={shown ? 'shown' : 'hidden'} className={className}>
      {children}
    </div>
  )
}
