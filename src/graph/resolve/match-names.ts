/**
 * Pairs of a scope set's entities that name one thing by a rule of name-rules.ts, found through
 * indexes (by initials, by word) rather than by comparing every pair. A partial name or an
 * acronym that fits more than one longer name of the set (two people called Ian) is left alone.
 */
import { initialsOf, matchRule, type NameRule, words } from './name-rules.js'

export interface NamedEntity {
  id: string
  /** Normalized (normalizeName). */
  name: string
  kind: string
}

export interface NamePair {
  a: string
  b: string
  rule: NameRule | 'embedding'
  score: number
}

/** Posting lists longer than this are words too common to suggest a match ("debian" in a Debian set). */
const COMMON_WORD = 200

export function ruleMatches(entities: readonly NamedEntity[]): NamePair[] {
  const out: NamePair[] = []
  const byKind = new Map<string, NamedEntity[]>()
  for (const e of entities) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e])
  for (const [kind, group] of byKind) matchKind(kind, group, out)
  return out
}

function matchKind(kind: string, group: readonly NamedEntity[], out: NamePair[]): void {
  const byWord = new Map<string, NamedEntity[]>()
  const byInitials = new Map<string, NamedEntity[]>()
  for (const e of group) {
    const w = words(e.name)
    for (const word of new Set(w)) byWord.set(word, [...(byWord.get(word) ?? []), e])
    for (let k = 0; k <= Math.min(1, w.length - 2); k++) {
      const key = `${w.slice(0, k).join(' ')}|${initialsOf(w.slice(k))}`
      byInitials.set(key, [...(byInitials.get(key) ?? []), e])
    }
  }
  for (const e of group) {
    const w = words(e.name)
    const candidates = new Set<NamedEntity>(byInitials.get(`${w.slice(0, -1).join(' ')}|${w.at(-1)}`) ?? [])
    const rarest = [...new Set(w)].map((x) => byWord.get(x) ?? []).filter((list) => list.length <= COMMON_WORD)
    for (const list of rarest) for (const c of list) candidates.add(c)
    const longer: { other: NamedEntity; rule: NameRule }[] = []
    for (const other of candidates) {
      if (other === e) continue
      const m = matchRule(e.name, other.name, kind)
      if (m && m.short === e.name) longer.push({ other, rule: m.rule })
    }
    for (const { other, rule } of unambiguous(longer)) out.push({ a: e.id, b: other.id, rule, score: 1 })
  }
}

/** Designator matches stand; partial names and acronyms only when every longer name they fit is one name. */
function unambiguous(longer: { other: NamedEntity; rule: NameRule }[]): { other: NamedEntity; rule: NameRule }[] {
  const sure = longer.filter((m) => m.rule === 'designator')
  const loose = longer.filter((m) => m.rule !== 'designator')
  if (loose.length <= 1) return [...sure, ...loose]
  const oneName = loose.every((x) => loose.every((y) => x === y || matchRule(x.other.name, y.other.name, x.other.kind)?.rule === 'designator'))
  return oneName ? [...sure, ...loose] : sure
}
