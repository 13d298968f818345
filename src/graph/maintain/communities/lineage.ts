/**
 * How a rebuild's communities relate to the previous build's, level by level, so a community
 * keeps its identity (`lineage`) across rebuilds and the insight pass can tell new and split
 * communities from kept ones. An old community's heir is the new one holding most of its
 * members; a new community that is some old one's heir keeps that lineage. One that is nobody's
 * heir but took at least a third of an old community (two members or more) split from it;
 * anything else is new. With no previous build at all, everything is 'first'.
 */
import { randomUUID } from 'node:crypto'
import type { PreviousCommunity } from '../sql/community-sql.js'

export interface Ancestry {
  lineage: string
  novelty: 'first' | 'kept' | 'new' | 'split'
  splitFrom: string | null
}

export function traceLineage(previous: PreviousCommunity[], level: number, current: string[][]): Ancestry[] {
  const old = previous.filter((p) => p.level === level)
  if (previous.length === 0) return current.map(() => ({ lineage: randomUUID(), novelty: 'first', splitFrom: null }))
  const where = new Map<string, number>()
  current.forEach((members, i) => {
    for (const m of members) where.set(m, i)
  })
  const heirs = new Map<number, { lineage: string; overlap: number }>()
  const shares: { index: number; lineage: string; overlap: number; of: number }[] = []
  for (const o of old) {
    const counts = new Map<number, number>()
    for (const m of o.members) {
      const i = where.get(m)
      if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1)
    }
    let best = -1
    let bestCount = 0
    for (const [i, n] of counts) {
      if (n > bestCount || (n === bestCount && current[i].length > current[best]?.length)) {
        best = i
        bestCount = n
      }
    }
    if (best < 0) continue
    const held = heirs.get(best)
    if (!held || bestCount > held.overlap) heirs.set(best, { lineage: o.lineage, overlap: bestCount })
    for (const [i, n] of counts) if (i !== best) shares.push({ index: i, lineage: o.lineage, overlap: n, of: o.members.length })
  }
  return current.map((_, i) => {
    const heir = heirs.get(i)
    if (heir) return { lineage: heir.lineage, novelty: 'kept', splitFrom: null }
    const split = shares.filter((s) => s.index === i && s.overlap >= 2 && s.overlap * 3 >= s.of).sort((a, b) => b.overlap - a.overlap)[0]
    if (split) return { lineage: randomUUID(), novelty: 'split', splitFrom: split.lineage }
    return { lineage: randomUUID(), novelty: 'new', splitFrom: null }
  })
}
