/** `aizk graph entity`'s text: one entity's page, each claim and mention with its source. */
import type { EntityClaim, EntityPage } from '../graph/read/read-entity.js'
import { renderTable } from '../operator/table.js'

const sources = (c: EntityClaim) => [...new Set(c.sources.map((s) => s.title ?? s.chunkId))].join(', ')
const state = (c: EntityClaim) => `${c.faded ? ' (faded)' : ''}${c.supersededBy ? ' (superseded)' : ''}`
const several = (p: EntityPage) => p.scopes.length > 1

function claimTable(claims: EntityClaim[], p: EntityPage, empty: string): string {
  return renderTable(
    claims,
    [
      { header: 'WEIGHT', get: (c) => c.weight.toFixed(2), align: 'right' },
      { header: 'CLAIM', get: (c) => `${c.subject} ${c.predicate} ${c.object}${state(c)}`.slice(0, 100) },
      { header: 'SINCE', get: (c) => c.validFrom.slice(0, 10) },
      ...(several(p) ? [{ header: 'SCOPE', get: (c: EntityClaim) => c.scopes.join(',') }] : []),
      { header: 'SOURCES', get: (c) => sources(c).slice(0, 60) },
    ],
    { empty },
  )
}

export function renderEntity(p: EntityPage): string {
  const e = p.entity
  const lines = [
    `${e.name} (${e.kind})  id ${e.id}  scopes {${e.scopes.join(',')}}`,
    `${e.mentions} mentions, first seen ${e.firstSeen}, last seen ${e.lastSeen}`,
  ]
  if (e.description) lines.push(e.description)
  if (p.aliases.length) lines.push(`aliases (merged into it): ${p.aliases.map((a) => `${a.name} (${a.kind})`).join(', ')}`)
  if (p.sameName.length)
    lines.push(`same name elsewhere in the read set: ${p.sameName.map((o) => `${o.name} (${o.kind}) ${o.id} {${o.scopes.join(',')}}`).join('; ')}`)
  lines.push('', 'claims out', claimTable(p.claimsOut, p, '(none)'), '', 'claims in', claimTable(p.claimsIn, p, '(none)'), '')
  lines.push(
    renderTable(
      p.neighbours,
      [
        { header: 'NEIGHBOUR', get: (n) => `${n.name} (${n.kind})` },
        { header: 'CLAIMS', get: (n) => String(n.claims), align: 'right' },
        { header: 'WEIGHT', get: (n) => n.weight.toFixed(2), align: 'right' },
      ],
      { empty: '(no neighbours)' },
    ),
    '',
    renderTable(
      p.communities,
      [
        { header: 'COMMUNITY', get: (m) => m.title.slice(0, 50) },
        { header: 'LEVEL', get: (m) => String(m.level), align: 'right' },
        { header: 'SIZE', get: (m) => String(m.size), align: 'right' },
        { header: 'SUMMARY', get: (m) => m.summary.slice(0, 80) },
      ],
      { empty: '(in no community)' },
    ),
    '',
    renderTable(
      p.mentions,
      [
        { header: 'MENTIONED IN', get: (m) => m.title ?? '(untitled)' },
        { header: 'CHARACTERS', get: (m) => (m.charStart !== null ? `${m.charStart}-${m.charEnd}` : '') },
        { header: 'TIMES', get: (m) => String(m.count), align: 'right' },
        ...(several(p) ? [{ header: 'SCOPE', get: (m: EntityPage['mentions'][number]) => m.scopes.join(',') }] : []),
        { header: 'CHUNK', get: (m) => m.chunkId },
      ],
      { empty: '(no mentions)' },
    ),
  )
  return lines.join('\n')
}
