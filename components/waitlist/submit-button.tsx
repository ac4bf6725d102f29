import { ArrowRight, LoaderCircle } from 'lucide-react'

type SubmitButtonProps = { pending: boolean; label: string; busyLabel: string; tone: FormTone }

export type FormTone = 'light' | 'dark'

const tones: Record<FormTone, string> = {
  light:
    'bg-gradient-to-r from-violet-700 to-fuchsia-700 text-white hover:from-violet-800 hover:to-fuchsia-800 focus-visible:ring-violet-300 disabled:from-violet-800 disabled:to-fuchsia-800',
  dark: 'bg-white text-violet-800 hover:bg-violet-50 focus-visible:ring-white/60 disabled:bg-violet-50',
}

export function SubmitButton({ pending, label, busyLabel, tone }: SubmitButtonProps) {
  return (
    <button
      type="submit"
      disabled={pending}
      className={`inline-flex h-12 shrink-0 items-center justify-center gap-2 rounded-xl px-6 font-semibold shadow-sm transition-colors focus-visible:ring-4 focus-visible:outline-none disabled:cursor-wait ${tones[tone]}`}
    >
      {pending ? busyLabel : label}
      {pending ? (
        <LoaderCircle
          aria-hidden="true"
          className="size-4 animate-spin motion-reduce:animate-none"
        />
      ) : (
        <ArrowRight aria-hidden="true" className="size-4" />
      )}
    </button>
  )
}
