import type { Metadata } from 'next'
import { Logo } from '@/components/brand/logo'
import { LogNotFound } from '@/components/not-found/log-not-found'
import { notFound } from '@/lib/site'

export const metadata: Metadata = { title: notFound.title }

export default function NotFound() {
  return (
    <main
      id="main"
      className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-6 text-center"
    >
      <LogNotFound />
      <p className="mb-10 text-lg text-slate-900">
        <Logo />
      </p>
      <h1 className="bg-gradient-to-r from-violet-700 to-fuchsia-700 bg-clip-text text-8xl font-bold tracking-tight text-transparent">
        {notFound.code}
      </h1>
      <p className="mt-4 text-xl text-slate-700">{notFound.message}</p>
      {/* A plain link: next/link's code would load on every page, the landing page included. */}
      {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a full load of / is what this page wants */}
      <a
        href="/"
        className="mt-8 rounded-full bg-violet-700 px-6 py-3 font-semibold text-white transition-colors hover:bg-violet-800 focus-visible:ring-4 focus-visible:ring-violet-300 focus-visible:outline-none"
      >
        {notFound.homeLink}
      </a>
    </main>
  )
}
