/**
 * Which of a merged group's names the survivor shows: one of the most mentioned member's own
 * forms (below), and among them: not a possessive ("Raphaël's"), not
 * starting lower-case, not a bare acronym when its expansion is there, no honorific or
 * designator the others do without; then the fullest name (most words a reader would use, then
 * initials: "Richard M. Stallman"), then the most mentioned, then the shortest spelling.
 */
import { normalizeName } from '../extract/normalize.js'
import { DESIGNATORS, englishWord, isAcronymOf, withDesignators, words } from './name-rules.js'

export interface NameCandidate {
  name: string
  mentions: number
}

const POSSESSIVE = /['’]s$/u
const ACRONYM = /^\p{Lu}{2,6}$/u

function penalty(name: string, longest: number, expansionOf: (acronym: string) => boolean): number {
  let p = 0
  if (POSSESSIVE.test(name)) p += 4
  if (/^\p{Ll}/u.test(name)) p += 2
  if (ACRONYM.test(name) && (longest > 1 || expansionOf(name))) p += 2
  p += words(normalizeName(name)).filter((w) => DESIGNATORS.has(w)).length
  // A designator's acronym written after the name ("Free Software Foundation FSF").
  const ws = name.split(/\s+/)
  if (ws.length > 2 && ACRONYM.test(ws.at(-1) ?? '')) p += 1
  return p
}

const fullness = (name: string) => words(normalizeName(name)).filter((w) => !DESIGNATORS.has(w) && !/^\p{L}\.?$/u.test(w)).length
const initials = (name: string) => words(normalizeName(name)).filter((w) => /^\p{L}\.?$/u.test(w)).length

/** Every word of `short` (less a possessive) stands in `long` in order, and each word `long` adds is a name's, not an English word. */
function fullerFormOf(long: string, short: string): boolean {
  const s = words(normalizeName(short)).map((w) => w.replace(/['’]s$/u, ''))
  const l = words(normalizeName(long)).map((w) => w.replace(/['’]s$/u, ''))
  let k = 0
  const added: string[] = []
  for (const w of l) {
    if (k < s.length && w === s[k]) k++
    else added.push(w)
  }
  return k === s.length && added.every((w) => DESIGNATORS.has(w) || !englishWord(w))
}

/**
 * The names the group may show: the most mentioned member's (or members') own name, a fuller form of it
 * ("Raphaël Hertzog" for "Raphaël's"), the same name without designators ("Debian" for "Debian project"), or the expansion of it when it is an acronym ("Debian
 * Project Leader" for "DPL"). A merge never renames an entity to a phrase about it ("Loading
 * Linux" for Linux) or to another thing's name.
 */
function ownForms(candidates: readonly NameCandidate[]): NameCandidate[] {
  const most = Math.max(...candidates.map((c) => c.mentions))
  const own = candidates.filter((c) => candidates.some((top) => top.mentions === most && isOwnForm(c, top)))
  return own
}

function isOwnForm(c: NameCandidate, top: NameCandidate): boolean {
  return (
    c === top ||
    fullerFormOf(c.name, top.name) ||
    withDesignators(normalizeName(c.name), normalizeName(top.name)) ||
    (ACRONYM.test(top.name) && isAcronymOf(normalizeName(top.name), normalizeName(c.name)))
  )
}

export function betterName(all: readonly NameCandidate[]): string {
  const candidates = ownForms(all)
  const longest = Math.max(...candidates.map((c) => fullness(c.name)))
  const expanded = (acronym: string) => candidates.some((c) => isAcronymOf(normalizeName(acronym), normalizeName(c.name)))
  const ranked = [...candidates].sort(
    (a, b) =>
      penalty(a.name, longest, expanded) - penalty(b.name, longest, expanded) ||
      fullness(b.name) - fullness(a.name) ||
      initials(b.name) - initials(a.name) ||
      b.mentions - a.mentions ||
      a.name.length - b.name.length ||
      a.name.localeCompare(b.name),
  )
  return ranked[0].name
}
