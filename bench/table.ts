import type { Metrics, Run } from './lighthouse-runs'
import { groups, type Group } from './main-thread'
import type { PageName } from './pages'

export const ms = (value: number) => `${Math.round(value)} ms`
const ratio = (a: number, b: number) => (b === 0 ? '–' : `${(a / b).toFixed(2)}×`)

/**
 * A budget of the site's: what it says, the pairs it judges (the site and the page it is held
 * against, none for a figure of its own), and the test.
 */
export type Budget = [
  text: string,
  pairs: [site: PageName, against?: PageName][],
  held: (site: number, other: number) => boolean,
]
export type Row = [
  label: string,
  format: (v: number) => string,
  key: keyof Metrics,
  budget?: Budget,
]

/**
 * Prints the pages' medians side by side, the ratio of each pair of `ratios` (both measured),
 * and each budget held or missed by each pair it judges whose pages were measured.
 */
export function table(
  title: string,
  median: Partial<Record<PageName, Metrics>>,
  rows: Row[],
  ratios: [PageName, PageName][],
): string[] {
  const pages = Object.keys(median) as PageName[]
  const pairs = ratios.filter(([a, b]) => median[a] && median[b])
  const cells = [
    ['', ...pages, ...pairs.map(([a, b]) => `${a}/${b}`), 'budget', ''],
    ...rows.map(([label, format, key, budget]) => {
      const value = (name: PageName) => median[name]![key]
      const [text = '', judged = [], test] = budget ?? []
      const verdicts = judged
        .filter(([site, against]) => median[site] && (!against || median[against]))
        .map(([site, against]) => {
          const held = test!(value(site), against ? value(against) : Number.NaN)
          return `${judged.length > 1 ? `${site}: ` : ''}${held ? 'held' : 'MISSED'}`
        })
      return [
        label,
        ...pages.map((name) => format(value(name))),
        ...pairs.map(([a, b]) => ratio(value(a), value(b))),
        verdicts.length ? text : '',
        verdicts.join(', '),
      ]
    }),
  ]
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)))
  const lines = cells.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  )
  console.log(`\n${title}`)
  lines.forEach((line) => console.log(line))
  return lines
}

/**
 * The pages' main-thread breakdown, medians of the runs (with `styleBudget` on style and layout),
 * then the long tasks of each page's run of median TBT.
 */
export function printMainThread(
  runs: Partial<Record<PageName, Run[]>>,
  median: Partial<Record<PageName, Metrics>>,
  ratios: [PageName, PageName][],
  styleBudget?: Budget,
): string[] {
  const rows: Row[] = (Object.keys(groups) as Group[]).map((group) => [groups[group], ms, group])
  if (styleBudget) rows[0]![3] = styleBudget
  const lines = table(
    'Main thread (simulated), medians',
    median,
    [...rows, ['attributed to the document', ms, 'document']],
    ratios,
  )
  for (const [name, each] of Object.entries(runs)) {
    const byTbt = [...each].sort((a, b) => a.tbtMs - b.tbtMs)
    const run = byTbt[Math.ceil(byTbt.length / 2) - 1]!
    console.log(`\nThe 10 longest tasks of ${name}'s median run (TBT ${Math.round(run.tbtMs)} ms):`)
    const longest = [...run.longTasks].sort((a, b) => b.durationMs - a.durationMs).slice(0, 10)
    for (const task of run.longTasks.filter((each) => longest.includes(each))) {
      const line = `  at ${Math.round(task.startMs)} ms, ${Math.round(task.durationMs)} ms: ${task.what}`
      console.log(line)
      lines.push(`${name}${line}`)
    }
  }
  return lines
}
