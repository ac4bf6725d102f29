/** Label-value rows, the values lined up in one column, as the commands print figures. */
export function table(rows: [string, string][], indent = ''): string {
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}\n`).join('')
}
