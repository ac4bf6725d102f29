/**
 * A section that fades in the first time a tenth of it scrolls into view.
 * It is served shown, as plain markup: only the page's one observer
 * ({@link RevealOnScroll}) hides it, and only if it is below the fold when the
 * scripts run, so a page whose scripts are late, blocked or failed is simply
 * the page. The motion is a CSS transition keyed on
 * `data-reveal` (see globals.css), which reduced motion turns off.
 */
export function Reveal({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <div data-reveal="" className={className}>
      {children}
    </div>
  )
}
