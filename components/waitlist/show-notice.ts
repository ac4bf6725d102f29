import { toast } from 'sonner'
import type { Notice } from '@/lib/waitlist/notice'

const byTone = {
  success: toast.success,
  info: toast.info,
  destructive: toast.error,
} as const

/** Shows a notice as a toast. Each call is a new toast, so two equal outcomes in a row both show. */
export function showNotice({ tone, title, description }: Notice): void {
  byTone[tone](title, { description })
}
