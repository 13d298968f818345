/** Plain-text tables for `--once` frames and listings: padded columns, no escape codes. */
export interface Column<T> {
  header: string
  get: (row: T) => string | number | null | undefined
  align?: 'left' | 'right'
}

export function renderTable<T>(rows: T[], columns: Column<T>[], opts: { empty?: string } = {}): string {
  if (rows.length === 0) return opts.empty ?? '(none)'
  const cells = rows.map((r) =>
    columns.map((c) => {
      const v = c.get(r)
      return v === null || v === undefined ? '-' : String(v)
    }),
  )
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i].length)))
  const fmt = (values: string[]) =>
    values
      .map((v, i) => (columns[i].align === 'right' ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd()
  return [fmt(columns.map((c) => c.header)), ...cells.map(fmt)].join('\n')
}
