import type { Result } from 'lighthouse'

/** Lighthouse's groups of main-thread work (`mainthread-work-breakdown`), in the order printed. */
export const groups = {
  styleLayout: 'style & layout',
  scriptEvaluation: 'script evaluation',
  other: 'other',
  scriptParseCompile: 'script parse & compile',
  parseHTML: 'HTML parse',
  paintCompositeRender: 'rendering',
  garbageCollection: 'garbage collection',
} as const
export type Group = keyof typeof groups
/** Milliseconds per group, and (`bootup-time`) the time spent on the document's own URL. */
export type Breakdown = Record<Group | 'document', number>

export function breakdown(lhr: Result): Breakdown {
  const items = (audit: string) => {
    const details = lhr.audits[audit]?.details
    return (details && 'items' in details ? details.items : []) as Record<string, unknown>[]
  }
  const byGroup = Object.fromEntries(
    Object.keys(groups).map((group) => [
      group,
      Number(
        items('mainthread-work-breakdown').find((item) => item.group === group)?.duration ?? 0,
      ),
    ]),
  ) as Record<Group, number>
  const document = items('bootup-time').find((item) => item.url === lhr.finalDisplayedUrl)
  return { ...byGroup, document: Number(document?.total ?? 0) }
}

/** A long task as the slowed phone runs it: when it began and how long it took (ms), and what it ran. */
export type LongTask = { startMs: number; durationMs: number; what: string }

/**
 * The main thread's long tasks as Lighthouse's `long-tasks` audit gives them: each top-level task
 * of 50 ms or more, timed as the throttled phone runs it (modelled, under simulated throttling),
 * named by the script it is attributed to: a chunk, `/` for the document, or `browser`.
 * (`npm run bench:paint -- --tasks` says what each task did, from the trace.)
 */
export function longTasks(lhr: Result): LongTask[] {
  const details = lhr.audits['long-tasks']?.details
  const debugData = details && 'debugData' in details ? details.debugData : undefined
  const { urls = [], tasks = [] } = (debugData ?? {}) as {
    urls?: string[]
    tasks?: { urlIndex: number; startTime: number; duration: number }[]
  }
  return tasks.map(({ urlIndex, startTime, duration }) => {
    const url = urls[urlIndex] ?? ''
    const script = url.replace(/^.*\/_next\/static\/chunks\//, '').replace(/^https?:\/\/[^/]+/, '')
    return {
      startMs: startTime,
      durationMs: duration,
      what: /^https?:/.test(url) ? script || '/' : 'browser',
    }
  })
}
