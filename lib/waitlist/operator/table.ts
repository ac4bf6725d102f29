// The label-value tables the commands print, their values lined up in one column.
export type Row = [string, string | number]

/** `1 signup`, `2 signups`. */
export const countOf = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`

export function table(rows: Row[]): string {
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}\n`).join('')
}
