/**
 * Which of a merged group's names the survivor shows: one of the most mentioned member's own
 * forms (below), and among them: not a possessive ("Raphaël's"), not
 * starting lower-case, not a bare acronym when its expansion is there, no honorific or
 * designator the others do without; then the fullest name (most words a reader would use, then
 * initials: "Richard M. Stallman"), then the most mentioned, then the shortest spelling.
 */
import { normalizeName } from '../extract/normalize.js'
import { compatibleNames } from './name-compatibility.js'
import { DESIGNATORS, englishWord, isAcronymOf, isPartialOf, withDesignators, words } from './name-rules.js'

export interface NameCandidate {
  name: string
  mentions: number
  kind: string
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

const bare = (name: string) => words(normalizeName(name)).map((w) => w.replace(POSSESSIVE, ''))

/** A person's name with more of its own words: every word of `short` (less a possessive) stands in `long` in order, and each word `long` adds is a name's, not an English word. */
function fullerPersonName(long: string, short: string): boolean {
  const s = bare(short)
  const l = bare(long)
  let k = 0
  const added: string[] = []
  for (const w of l) {
    if (k < s.length && w === s[k]) k++
    else added.push(w)
  }
  return k === s.length && added.every((w) => DESIGNATORS.has(w) || !englishWord(w))
}

/**
 * The names the group may show: the most mentioned member's (or members') own name, spelled
 * alike ("Debian's" for "Debian"), and the forms the merge rules (name-rules.ts) give that name:
 * a person's fuller name ("Raphaël Hertzog" for "Raphaël's"), the same name without designators
 * ("Debian" for "Debian project"), the expansion of an acronym ("Debian Project Leader" for
 * "DPL"), the longer name a phrase or codename ends ("Debian Technical Committee" for "Technical
 * Committee"). A merge never renames an entity to a phrase about it ("Loading Linux" for Linux)
 * or to another thing's name ("SUSE Linux" for Linux).
 */
function ownForms(candidates: readonly NameCandidate[]): NameCandidate[] {
  const most = Math.max(...candidates.map((c) => c.mentions))
  return candidates.filter((c) => candidates.some((top) => top.mentions === most && isOwnForm(c, top)))
}

function isOwnForm(c: NameCandidate, top: NameCandidate): boolean {
  const name = normalizeName(c.name)
  const topName = normalizeName(top.name)
  return (
    c === top ||
    compatibleNames(bare(c.name).join(' '), bare(top.name).join(' ')) ||
    (top.kind === 'person' && fullerPersonName(c.name, top.name)) ||
    withDesignators(name, topName) ||
    (ACRONYM.test(top.name) && isAcronymOf(topName, name, 2)) ||
    (top.kind !== 'person' && isPartialOf(bare(top.name).join(' '), name, top.kind))
  )
}

export function betterName(all: readonly NameCandidate[]): string {
  const candidates = ownForms(all)
  const longest = Math.max(...candidates.map((c) => fullness(c.name)))
  const expanded = (acronym: string) => candidates.some((c) => isAcronymOf(normalizeName(acronym), normalizeName(c.name), 2))
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
