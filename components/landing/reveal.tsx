/** A section served shown; only RevealOnScroll hides it, and globals.css moves it on `data-reveal`. */
export function Reveal({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <div data-reveal="" className={className}>
      {children}
    </div>
  )
}
