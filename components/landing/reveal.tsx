/**
 * A section that fades in the first time a tenth of it scrolls into view.
 * It renders on the server as plain markup: the motion is a CSS transition
 * keyed on `data-reveal` (see globals.css), which also shows the content
 * outright when script is off or reduced motion is requested, and one
 * observer for the whole page ({@link RevealOnScroll}) flips it to `shown`.
 */
export function Reveal({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <div data-reveal="hidden" className={className}>
      {children}
    </div>
  )
}
