import { site } from '@/lib/site'

/** The mark (the favicon's drawing, app/icon.svg) and the name, as the page's wordmark. */
export function Logo() {
  return (
    <span className="inline-flex items-center gap-2.5 font-semibold tracking-tight">
      <svg viewBox="0 0 64 64" aria-hidden="true" className="size-[1.6em] shrink-0">
        <rect width="64" height="64" rx="14" fill="#0b0616" />
        <circle cx="25" cy="32" r="12" fill="none" stroke="#a78bfa" strokeWidth="6" />
        <circle cx="39" cy="32" r="12" fill="none" stroke="#f0abfc" strokeWidth="6" />
      </svg>
      {site.name}
    </span>
  )
}
