/**
 * Pairs of a scope set's entities that name one thing by a rule of name-rules.ts, found through
 * indexes (by initials, by word) rather than by comparing every pair. A partial name or an
 * acronym that fits more than one longer name of the set (two people called Ian) is left alone.
 */
import { compatibleNames } from './name-compatibility.js'
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

/** A word without its possessive, so "Raphaël's" is found beside "Raphaël Hertzog". */
const stem = (word: string) => word.replace(/['’]s$/u, '')

interface Heads {
  names: Set<string>
  /** First word -> the second words of the names it begins. */
  seconds: Map<string, Set<string>>
}

/** Posting lists longer than this are words too common to suggest a match ("debian" in a Debian set). */
const COMMON_WORD = 200

export function ruleMatches(entities: readonly NamedEntity[]): NamePair[] {
  const out: NamePair[] = []
  const byKind = new Map<string, NamedEntity[]>()
  for (const e of entities) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e])
  const heads: Heads = { names: new Set(entities.map((e) => e.name.replace(/\.(com|org|net)$/, ''))), seconds: new Map() }
  for (const e of entities) {
    const [first, second] = words(e.name)
    if (second) heads.seconds.set(first, (heads.seconds.get(first) ?? new Set()).add(second))
  }
  for (const [kind, group] of byKind) matchKind(kind, group, out, heads)
  return out
}

/**
 * A name's tail stands for it only where its head is a name of the set of its own ("GNU" of
 * "GNU Readline", "Debian" of "Debian LTS team"); "Python" is not "Monty Python".
 */
function headIsAName(short: string, long: string, names: ReadonlySet<string>, firstWords: ReadonlyMap<string, Set<string>>): boolean {
  const all = words(long)
  const head = all.slice(0, all.length - words(short).length)
  if (head.length === 0) return false
  if (names.has(head.join(' '))) return true
  // Or it begins names that part from this one at their second word ("Debian LTS", "Debian Policy").
  return (firstWords.get(head[0])?.size ?? 0) >= 2 && ![...(firstWords.get(head[0]) ?? [])].every((second) => compatibleNames(second, all[1]))
}

function matchKind(kind: string, group: readonly NamedEntity[], out: NamePair[], heads: Heads): void {
  const byWord = new Map<string, NamedEntity[]>()
  const byInitials = new Map<string, NamedEntity[]>()
  for (const e of group) {
    const w = words(e.name)
    for (const word of new Set(w.map(stem))) byWord.set(word, [...(byWord.get(word) ?? []), e])
    for (let k = 0; k <= Math.min(1, w.length - 2); k++) {
      const key = `${w.slice(0, k).join(' ')}|${initialsOf(w.slice(k))}`
      byInitials.set(key, [...(byInitials.get(key) ?? []), e])
    }
  }
  for (const e of group) {
    const w = words(e.name)
    const candidates = new Set<NamedEntity>(byInitials.get(`${w.slice(0, -1).join(' ')}|${w.at(-1)}`) ?? [])
    const rarest = [...new Set(w.map(stem))].map((x) => byWord.get(x) ?? []).filter((list) => list.length <= COMMON_WORD)
    for (const list of rarest) for (const c of list) candidates.add(c)
    const longer: { other: NamedEntity; rule: NameRule }[] = []
    for (const other of candidates) {
      if (other === e) continue
      const m = matchRule(e.name, other.name, kind)
      if (!m || m.short !== e.name) continue
      if (m.rule === 'partial-name' && kind !== 'person' && !headIsAName(m.short, m.long, heads.names, heads.seconds)) continue
      longer.push({ other, rule: m.rule })
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
