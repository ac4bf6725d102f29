import { Logo } from '@/components/brand/logo'
import { WaitlistForm } from '@/components/waitlist/waitlist-form'
import { hero, waitlistForms } from '@/lib/site'

// On a phone the headline is narrowed to three lines: at full width two would fit Geist or its fallbacks, not both.
export function Hero() {
  return (
    <section aria-labelledby="hero-heading" className="bg-hero-glow text-white">
      <div className="mx-auto grid max-w-6xl gap-x-16 gap-y-8 px-6 pt-8 pb-20 sm:gap-y-12 sm:pt-14 lg:grid-cols-[1.1fr_0.9fr] lg:gap-y-10 lg:pt-16 lg:pb-28">
        <div className="lg:self-end">
          <p className="text-lg">
            <Logo />
          </p>
          <p className="mt-8 inline-flex rounded-full border border-white/15 bg-white/5 px-3 py-1 text-sm text-violet-100 sm:mt-10">
            {hero.eyebrow}
          </p>
          <h1
            id="hero-heading"
            className="mt-5 max-w-[9.5em] text-4xl font-bold tracking-tight text-balance sm:max-w-none sm:text-5xl lg:text-6xl"
          >
            {hero.headline}{' '}
            <span className="bg-gradient-to-r from-violet-300 to-fuchsia-300 bg-clip-text text-transparent">
              {hero.headlineAccent}
            </span>
          </h1>
          <p className="mt-5 max-w-xl text-base leading-relaxed text-slate-300 sm:mt-6 sm:text-lg">
            {hero.pitch}
          </p>
        </div>
        <div className="rounded-3xl bg-white p-6 text-slate-900 shadow-2xl shadow-violet-950/50 sm:p-8 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:self-center">
          <h2 className="text-2xl font-bold tracking-tight">{waitlistForms.hero.heading}</h2>
          <p className="mt-2 text-slate-600">{waitlistForms.hero.intro}</p>
          <WaitlistForm form="hero" className="mt-6" />
        </div>
        <dl className="grid max-w-md grid-cols-2 gap-4 lg:self-start">
          {hero.stats.map((stat) => (
            <div
              key={stat.label}
              className="flex flex-col-reverse rounded-2xl border border-white/10 bg-white/5 px-5 py-4"
            >
              <dt className="mt-1 text-sm text-slate-300">{stat.label}</dt>
              <dd className="text-3xl font-bold tracking-tight">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  )
}
