import type { Result } from 'lighthouse'
import { MainThreadTasks } from 'lighthouse/core/computed/main-thread-tasks.js'
import type { Metrics, Run } from './lighthouse-runs'
import { ms, pages, table, type PageName, type Row } from './table'

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

/** A long task: when it began in the unthrottled load (ms from the navigation), how long it takes slowed, what it is. */
export type LongTask = { startMs: number; durationMs: number; what: string }

type TaskNode = {
  event: { name: string; args?: { data?: { url?: string; functionName?: string } } }
  startTime: number
  duration: number
  selfTime: number
  group: { id: Group }
  children: TaskNode[]
  parent?: TaskNode
  unbounded?: boolean
}

const file = (url: string) =>
  url.replace(/^.*\/_next\/static\/chunks\//, '').replace(/^https?:\/\/[^/]+/, '')

/**
 * The main thread's long tasks as the slowed phone would run them: each
 * top-level task of the unthrottled trace, times the slowdown (as Lighthouse's
 * simulation scales CPU work), kept at 50 ms or more. Each says what it is: the
 * scripts it ran (`/` for the document's own), or `browser`, and its time by group.
 */
export async function longTasks(trace: unknown, cpuSlowdown: number): Promise<LongTask[]> {
  const tasks = (await MainThreadTasks.request(
    trace as never,
    {
      computedCache: new Map(),
    } as never,
  )) as unknown as TaskNode[]
  return tasks
    .filter((task) => !task.parent && !task.unbounded && task.startTime >= 0)
    .filter((task) => task.duration * cpuSlowdown >= 50)
    .map((task) => {
      const byGroup = new Map<Group, number>()
      const scripts = new Set<string>()
      const walk = (node: TaskNode) => {
        byGroup.set(node.group.id, (byGroup.get(node.group.id) ?? 0) + node.selfTime * cpuSlowdown)
        const url = node.event.args?.data?.url
        if (url && /EvaluateScript|v8\.compile|FunctionCall|ParseHTML/.test(node.event.name))
          scripts.add(file(url) || '/')
        node.children.forEach(walk)
      }
      walk(task)
      const parts = [...byGroup]
        .filter(([, ms]) => ms >= 5)
        .sort((a, b) => b[1] - a[1])
        .map(([group, ms]) => `${groups[group]} ${Math.round(ms)}`)
      return {
        startMs: task.startTime,
        durationMs: task.duration * cpuSlowdown,
        what: `${[...scripts].join(' ') || 'browser'}: ${parts.join(', ')}`,
      }
    })
}

/**
 * The main-thread breakdown of the three pages, medians of the runs (style and
 * layout held, on a low-end phone, to 1.25x the script-free copy's), then the
 * long tasks of each page's run of median TBT.
 */
export function printMainThread(
  runs: Record<PageName, Run[]>,
  median: Record<PageName, Metrics>,
  lowEnd: boolean,
): string[] {
  const rows: Row[] = (Object.keys(groups) as Group[]).map((group) => [groups[group], ms, group])
  if (lowEnd) rows[0]![3] = ['≤ script-free × 1.25', (s, o) => s <= o['script-free'] * 1.25]
  const lines = table('Main thread (simulated), medians', median, [
    ...rows,
    ['attributed to the document', ms, 'document'],
  ])
  for (const name of pages) {
    const byTbt = [...runs[name]].sort((a, b) => a.tbtMs - b.tbtMs)
    const run = byTbt[Math.ceil(byTbt.length / 2) - 1]!
    console.log(`\nThe 10 longest tasks of ${name}'s median run (TBT ${Math.round(run.tbtMs)} ms):`)
    const longest = [...run.longTasks].sort((a, b) => b.durationMs - a.durationMs).slice(0, 10)
    for (const task of run.longTasks.filter((each) => longest.includes(each))) {
      const line = `  at ${Math.round(task.startMs)} ms unthrottled, ${Math.round(task.durationMs)} ms: ${task.what}`
      console.log(line)
      lines.push(`${name}${line}`)
    }
  }
  return lines
}
