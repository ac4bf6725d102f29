// The label-value tables the commands print, their values lined up in one column.
export type Row = [string, string | number]

export const signups = (n: number) => `${n} ${n === 1 ? 'signup' : 'signups'}`

export function table(rows: Row[]): string {
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}\n`).join('')
}
