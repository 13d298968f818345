/**
 * Text for the jobs a requeue, discard or cancel moved (or would): a table of the first 50 and a
 * summary line by entrypoint. A requeue's list has no attempts column (it resets them) and its
 * cycles column is the cycle each job starts.
 */
import { renderTable } from '../operator/table.js'

export function renderJobList(
  rows: { id: string; entrypoint: string; attempts?: number; cycles?: number }[],
  summary: string,
  o: { attempts?: boolean; cycleHeader?: string } = {},
): string {
  const shown = rows.slice(0, 50)
  const out = [
    renderTable(shown, [
      { header: 'ID', get: (r) => r.id, align: 'right' },
      { header: 'ENTRYPOINT', get: (r) => r.entrypoint },
      ...(o.attempts !== false ? [{ header: 'ATTEMPTS', get: (r: (typeof rows)[number]) => r.attempts ?? '', align: 'right' as const }] : []),
      { header: o.cycleHeader ?? 'CYCLES', get: (r) => r.cycles ?? '', align: 'right' },
    ]),
  ]
  if (rows.length > shown.length) out.push(`... and ${rows.length - shown.length} more`)
  const byEp = new Map<string, number>()
  for (const r of rows) byEp.set(r.entrypoint, (byEp.get(r.entrypoint) ?? 0) + 1)
  out.push(`${summary} ${rows.length} job(s): ${[...byEp].map(([ep, n]) => `${ep} ${n}`).join(', ')}`)
  return out.join('\n')
}
