import { Logo } from '@/components/brand/logo'
import { site } from '@/lib/site'
import { Reveal } from './reveal'

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <Reveal className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-2 px-6 py-8 text-sm text-slate-600 sm:flex-row">
        <p className="text-slate-900">
          <Logo />
        </p>
        <p>
          © {site.footerYear} {site.name}. All rights reserved.
        </p>
      </Reveal>
    </footer>
  )
}
