/**
 * Which of a merged group's names the survivor shows: not a possessive ("Raphaël's"), not
 * starting lower-case, not a bare acronym when its expansion is there, no honorific or
 * designator the others do without; then the fullest name (most words a reader would use, then
 * initials: "Richard M. Stallman"), then the most mentioned, then the shortest spelling.
 */
import { normalizeName } from '../extract/normalize.js'
import { DESIGNATORS, words } from './name-rules.js'

export interface NameCandidate {
  name: string
  mentions: number
}

const POSSESSIVE = /['’]s$/u
const ACRONYM = /^\p{Lu}{2,6}$/u

function penalty(name: string, longest: number): number {
  let p = 0
  if (POSSESSIVE.test(name)) p += 4
  if (/^\p{Ll}/u.test(name)) p += 2
  if (ACRONYM.test(name) && longest > 1) p += 2
  p += words(normalizeName(name)).filter((w) => DESIGNATORS.has(w)).length
  // A designator's acronym written after the name ("Free Software Foundation FSF").
  const ws = name.split(/\s+/)
  if (ws.length > 2 && ACRONYM.test(ws.at(-1) ?? '')) p += 1
  return p
}

const fullness = (name: string) => words(normalizeName(name)).filter((w) => !DESIGNATORS.has(w) && !/^\p{L}\.?$/u.test(w)).length
const initials = (name: string) => words(normalizeName(name)).filter((w) => /^\p{L}\.?$/u.test(w)).length

export function betterName(candidates: readonly NameCandidate[]): string {
  const longest = Math.max(...candidates.map((c) => fullness(c.name)))
  const ranked = [...candidates].sort(
    (a, b) =>
      penalty(a.name, longest) - penalty(b.name, longest) ||
      fullness(b.name) - fullness(a.name) ||
      initials(b.name) - initials(a.name) ||
      b.mentions - a.mentions ||
      a.name.length - b.name.length ||
      a.name.localeCompare(b.name),
  )
  return ranked[0].name
}
