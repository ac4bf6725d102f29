import { z } from 'zod'
import { WAITLIST_SOURCES } from '@/lib/site'
import { ReadError, type WaitlistStats } from './reader'
import { table } from './table'

export const STATS_FORMATS = ['table', 'json'] as const
export type StatsFormat = (typeof STATS_FORMATS)[number]

export const DEFAULT_STATS_DAYS = 14
/** The most days `public.waitlist_stats` accepts. */
export const MAX_STATS_DAYS = 3660

const count = z.number().int().nonnegative()
const statsSchema = z.object({
  total: count,
  by_source: z.record(z.string(), count),
  first_signup_at: z.string().nullable(),
  latest_signup_at: z.string().nullable(),
  days: z.array(z.object({ day: z.iso.date(), signups: count })),
})

/**
 * The database's answer, checked: it crosses a network on Supabase. Every
 * known source is listed, with 0 when it has brought no signup yet.
 */
export function parseStats(value: unknown): WaitlistStats {
  const parsed = statsSchema.safeParse(value)
  if (!parsed.success) {
    throw new ReadError(`The signup figures came back in a shape this code does not know.`, {
      cause: parsed.error,
    })
  }
  const known = Object.fromEntries(WAITLIST_SOURCES.map((source) => [source, 0]))
  return { ...parsed.data, by_source: { ...known, ...parsed.data.by_source } }
}

export function formatStats(stats: WaitlistStats, format: StatsFormat): string {
  if (format === 'json') return JSON.stringify(stats, null, 2) + '\n'
  const sources = Object.entries(stats.by_source).map(([source, n]): [string, string] => [
    `  ${source}`,
    String(n),
  ])
  return (
    table([
      ['Signups', String(stats.total)],
      ...sources,
      ['First signup', stats.first_signup_at ?? 'none yet'],
      ['Latest signup', stats.latest_signup_at ?? 'none yet'],
    ]) +
    `\nSignups per day, last ${stats.days.length} days (UTC):\n` +
    table(
      stats.days.map(({ day, signups }) => [day, String(signups)]),
      '  ',
    )
  )
}
