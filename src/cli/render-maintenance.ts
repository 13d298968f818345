/** The plain-text sections `aizk graph` prints for what the weekly passes built. */
import type { MaintenanceView } from '../graph/read/read-maintenance.js'
import { renderTable } from '../operator/table.js'

export function renderMaintenance(view: MaintenanceView): string {
  const communities = renderTable(
    view.communities,
    [
      { header: 'LEVEL', get: (c) => String(c.level), align: 'right' },
      { header: 'COMMUNITY', get: (c) => `${c.title}${c.novelty === 'kept' || c.novelty === 'first' ? '' : ` (${c.novelty})`}`.slice(0, 60) },
      { header: 'SIZE', get: (c) => String(c.size), align: 'right' },
      { header: 'MEMBERS', get: (c) => `${c.members.join(', ')}${c.size > c.members.length ? ', …' : ''}`.slice(0, 90) },
    ],
    { empty: '(no communities)' },
  )
  const raptor = renderTable(
    view.raptor,
    [
      { header: 'RAPTOR LEVEL', get: (r) => String(r.level), align: 'right' },
      { header: 'NODES', get: (r) => String(r.nodes), align: 'right' },
      { header: 'CHILDREN', get: (r) => String(r.children), align: 'right' },
      { header: 'FIRST SUMMARY', get: (r) => r.sample.slice(0, 90) },
    ],
    { empty: '(no RAPTOR tree)' },
  )
  const insights = renderTable(
    view.insights,
    [
      { header: 'INSIGHT', get: (i) => i.kind },
      { header: 'FINDING', get: (i) => i.title.slice(0, 80) },
      {
        header: 'EVIDENCE',
        get: (i) =>
          i.evidence
            .map((e) => e.claim)
            .join('; ')
            .slice(0, 90),
      },
    ],
    { empty: '(no insights)' },
  )
  return [communities, '', ...summaries(view), raptor, '', insights].join('\n')
}

/** The biggest communities' summaries as paragraphs, with the model's findings when it reported. */
function summaries(view: MaintenanceView, count = 5): string[] {
  return view.communities
    .slice(0, count)
    .flatMap((c) => [
      `${c.title} (level ${c.level}, ${c.size} entities${c.reportedAt ? ', model report' : ''})`,
      `  ${c.summary}`,
      ...c.findings.map((f) => `  - ${f.summary}: ${f.explanation}`),
      '',
    ])
}
