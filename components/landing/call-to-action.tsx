import { WaitlistForm } from '@/components/waitlist/waitlist-form'
import { callToAction } from '@/lib/site'
import { Reveal } from './reveal'

export function CallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="bg-white px-6 pb-20 sm:pb-28">
      <Reveal className="mx-auto max-w-5xl overflow-hidden rounded-3xl bg-gradient-to-br from-violet-800 via-violet-700 to-fuchsia-800 px-6 py-14 text-center text-white shadow-xl sm:px-12 sm:py-20">
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
          {callToAction.heading}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-violet-100">{callToAction.body}</p>
        <WaitlistForm form="cta" tone="dark" className="mx-auto mt-8 max-w-xl text-left" />
      </Reveal>
    </section>
  )
}
