import type { Metrics } from './lighthouse-runs'

export const pages = ['site', 'minimal', 'script-free'] as const
export type PageName = (typeof pages)[number]

export const ms = (value: number) => `${Math.round(value)} ms`
const ratio = (a: number, b: number) => (b === 0 ? '–' : `${(a / b).toFixed(2)}×`)

export type Row = [
  label: string,
  format: (v: number) => string,
  key: keyof Metrics,
  budget?: Budget,
]
type Budget = [text: string, held: (site: number, others: Record<PageName, number>) => boolean]

/** Prints the medians of the pages side by side, the site's ratios to the other two, and each budget held or missed. */
export function table(title: string, median: Record<PageName, Metrics>, rows: Row[]): string[] {
  const cells = [
    ['', 'site', 'minimal', 'script-free', 'site/minimal', 'site/script-free', 'budget', ''],
    ...rows.map(([label, format, key, budget]) => {
      const values = Object.fromEntries(pages.map((name) => [name, median[name][key]])) as Record<
        PageName,
        number
      >
      return [
        label,
        ...pages.map((name) => format(values[name])),
        ratio(values.site, values.minimal),
        ratio(values.site, values['script-free']),
        budget?.[0] ?? '',
        budget ? (budget[1](values.site, values) ? 'held' : 'MISSED') : '',
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
