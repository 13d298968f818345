/** Text for the jobs a discard or cancel removed (or would): a table of the first 50 and a summary line. */
import { renderTable } from '../ui/table.js'

export function renderJobList(rows: { id: string; entrypoint: string; attempts?: number; cycles?: number }[], summary: string): string {
  const shown = rows.slice(0, 50)
  const out = [
    renderTable(shown, [
      { header: 'ID', get: (r) => r.id, align: 'right' },
      { header: 'ENTRYPOINT', get: (r) => r.entrypoint },
      { header: 'ATTEMPTS', get: (r) => r.attempts ?? '', align: 'right' },
      { header: 'CYCLES', get: (r) => r.cycles ?? '', align: 'right' },
    ]),
  ]
  if (rows.length > shown.length) out.push(`... and ${rows.length - shown.length} more`)
  const byEp = new Map<string, number>()
  for (const r of rows) byEp.set(r.entrypoint, (byEp.get(r.entrypoint) ?? 0) + 1)
  out.push(`${summary} ${rows.length} job(s): ${[...byEp].map(([ep, n]) => `${ep} ${n}`).join(', ')}`)
  return out.join('\n')
}
