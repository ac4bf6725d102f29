import type { Notice } from '@/lib/waitlist/notice'
import { loadSonner } from './load-sonner'

/**
 * Shows a notice as a toast. Each call is a new toast, so two equal outcomes
 * in a row both show. sonner keeps a toast made before its `Toaster` mounts
 * and shows it on mount, so a notice that beats the deferred load is not lost.
 */
export async function showNotice({ tone, title, description }: Notice): Promise<void> {
  const { toast } = await loadSonner()
  const show = { success: toast.success, info: toast.info, destructive: toast.error }[tone]
  show(title, { description })
}
