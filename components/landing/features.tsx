import { BadgeCheck, BarChart3, MessagesSquare, ShieldCheck, Sparkles, Zap } from 'lucide-react'
import { features, type FeatureIcon } from '@/lib/site'
import { Reveal } from './reveal'

const icons = {
  sparkles: Sparkles,
  messages: MessagesSquare,
  shield: ShieldCheck,
  badge: BadgeCheck,
  chart: BarChart3,
  zap: Zap,
} satisfies Record<FeatureIcon, unknown>

// On a phone no card's line nears its width in Geist or a fallback: none breaks anew as Geist loads.
export function Features() {
  return (
    <section aria-labelledby="features-heading" className="bg-white py-20 sm:py-28">
      <Reveal className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2
            id="features-heading"
            className="text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl"
          >
            {features.title}
          </h2>
          <p className="mt-4 text-lg text-slate-600">{features.intro}</p>
        </div>
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.cards.map((card) => {
            const Icon = icons[card.icon]
            return (
              <li
                key={card.title}
                className="rounded-2xl border border-slate-200 bg-slate-50/60 p-5 transition-shadow hover:shadow-lg hover:shadow-violet-100 sm:p-6"
              >
                <div className="flex size-12 items-center justify-center rounded-xl bg-gradient-to-br from-violet-600 to-fuchsia-600 text-white">
                  <Icon aria-hidden="true" className="size-6" strokeWidth={1.75} />
                </div>
                <h3 className="mt-5 text-lg font-semibold text-slate-900">{card.title}</h3>
                <p className="mt-2 leading-relaxed text-slate-600">{card.body}</p>
              </li>
            )
          })}
        </ul>
      </Reveal>
    </section>
  )
}
