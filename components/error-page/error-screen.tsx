import { Logo } from '@/components/brand/logo'
import { errorPage } from '@/lib/site'
import { LogPageError, type PageError } from './log-page-error'

/** What a visitor sees when a page cannot be shown: the site's look, the spec's failure words, a way home. */
export function ErrorScreen({ error }: { error: PageError }) {
  return (
    <main
      id="main"
      className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-6 text-center"
    >
      <LogPageError error={error} />
      <p className="mb-10 text-lg text-slate-900">
        <Logo />
      </p>
      <h1 className="bg-gradient-to-r from-violet-700 to-fuchsia-700 bg-clip-text text-4xl font-bold tracking-tight text-transparent sm:text-5xl">
        {errorPage.title}
      </h1>
      <p className="mt-4 text-xl text-slate-700">{errorPage.message}</p>
      {/* A full load of /: whatever broke this page goes with it. */}
      {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a full load of / is what this page wants */}
      <a
        href="/"
        className="mt-8 rounded-full bg-violet-700 px-6 py-3 font-semibold text-white transition-colors hover:bg-violet-800 focus-visible:ring-4 focus-visible:ring-violet-300 focus-visible:outline-none"
      >
        {errorPage.homeLink}
      </a>
    </main>
  )
}
