import { ArrowRight, LoaderCircle } from 'lucide-react'
import type { CSSProperties } from 'react'
import type { waitlistForms, WaitlistFormName } from '@/lib/site'

export type FormTone = 'light' | 'dark'

const tones: Record<FormTone, string> = {
  light:
    'bg-gradient-to-r from-violet-700 to-fuchsia-700 text-white hover:from-violet-800 hover:to-fuchsia-800 focus-visible:ring-violet-300 aria-disabled:from-violet-800 aria-disabled:to-fuchsia-800',
  dark: 'bg-white text-violet-800 hover:bg-violet-50 focus-visible:ring-white/60 aria-disabled:bg-violet-50',
}

type Props = { pending: boolean; copy: (typeof waitlistForms)[WaitlistFormName]; tone: FormTone }

// `aria-disabled`, as `disabled` would drop the keyboard's focus; the unseen other label keeps the width.
export function SubmitButton({ pending, copy, tone }: Props) {
  return (
    <button
      type="submit"
      aria-disabled={pending}
      style={{ '--button-width': copy.buttonWidth } as CSSProperties}
      className={`inline-flex h-12 shrink-0 items-center justify-center rounded-xl px-6 font-semibold shadow-sm transition-colors focus-visible:ring-4 focus-visible:outline-none aria-disabled:cursor-wait @md:w-(--button-width) ${tones[tone]}`}
    >
      <span
        data-other={pending ? copy.submitLabel : copy.busyLabel}
        className="grid justify-items-center after:invisible after:pr-6 after:content-[attr(data-other)] after:[grid-area:1/1]"
      >
        <span className="inline-flex items-center gap-2 [grid-area:1/1]">
          {pending ? copy.busyLabel : copy.submitLabel}
          {pending ? (
            <LoaderCircle
              aria-hidden="true"
              className="size-4 animate-spin motion-reduce:animate-none"
            />
          ) : (
            <ArrowRight aria-hidden="true" className="size-4" />
          )}
        </span>
      </span>
    </button>
  )
}
