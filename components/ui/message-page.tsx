import type { ReactNode } from 'react'
import { Logo } from '@/components/brand/logo'
import { notFound } from '@/lib/site'

type Props = {
  heading: string
  headingSize: string
  message: string
  children?: ReactNode
}

export function MessagePage({ heading, headingSize, message, children }: Props) {
  return (
    <main
      id="main"
      className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-6 text-center"
    >
      {children}
      <p className="mb-10 text-lg text-slate-900">
        <Logo />
      </p>
      <h1
        className={`bg-gradient-to-r from-violet-700 to-fuchsia-700 bg-clip-text font-bold tracking-tight text-transparent ${headingSize}`}
      >
        {heading}
      </h1>
      <p className="mt-4 text-xl text-slate-700">{message}</p>
      {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a full load: no next/link code on the landing page, and whatever broke a page goes */}
      <a
        href="/"
        className="mt-8 rounded-full bg-violet-700 px-6 py-3 font-semibold text-white transition-colors hover:bg-violet-800 focus-visible:ring-4 focus-visible:ring-violet-300 focus-visible:outline-none"
      >
        {notFound.homeLink}
      </a>
    </main>
  )
}
