import type { Notice } from '@/lib/waitlist/notice'

/**
 * A notice as the status line reads it: the title as a sentence of its own,
 * then the description ("Something went wrong. Please try again later.").
 * A title that already ends a sentence ("Already on the list!") keeps its mark.
 */
export function statusText({ title, description }: Pick<Notice, 'title' | 'description'>): string {
  const sentence = /[.!?]$/.test(title) ? title : `${title}.`
  return `${sentence} ${description}`
}
