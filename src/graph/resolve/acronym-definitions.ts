/**
 * Two-letter acronyms ("FS", "PC") fit too many names to merge by their initials alone; one
 * merges with the expansion its initials spell only where a text of the set defines it with a
 * parenthesis: "Free Software (FS)" or "FS (Free Software)". The dedup pass asks the set's chunks
 * in SQL (dedup-sql.ts, definedAcronyms) the same question `definesAcronym` answers here.
 */

import type { NamedEntity } from './match-names.js'
import { isAcronymOf, words } from './name-rules.js'

/** Pairs [acronym id, expansion id] of one kind where a two-letter name spells the other's initials. */
export function twoLetterAcronyms(entities: readonly NamedEntity[]): [string, string][] {
  const byKindInitials = new Map<string, NamedEntity[]>()
  for (const e of entities) {
    const w = words(e.name)
    if (w.length !== 2) continue
    const key = `${e.kind}\u0000${w.map((x) => x[0]).join('')}`
    byKindInitials.set(key, [...(byKindInitials.get(key) ?? []), e])
  }
  const out: [string, string][] = []
  for (const e of entities) {
    if (!/^\p{L}{2}$/u.test(e.name)) continue
    for (const long of byKindInitials.get(`${e.kind}\u0000${e.name}`) ?? []) if (isAcronymOf(e.name, long.name, 2)) out.push([e.id, long.id])
  }
  return out
}

/** Runs of white space, as a pattern both JavaScript and PostgreSQL's regexp_replace read alike. */
export const WHITE_SPACE = '[ \\t\\n\\r\\f\\v]+'

/** Lower case, one space between words: how both sides compare a text with names (normalizeName's case and spacing). */
export const foldText = (text: string) => text.toLowerCase().replace(new RegExp(WHITE_SPACE, 'g'), ' ')

/** The text writes `expansion (acronym)` or `acronym (expansion)`; both names normalized. */
export function definesAcronym(text: string, acronym: string, expansion: string): boolean {
  const folded = foldText(text)
  return folded.includes(`${expansion} (${acronym})`) || folded.includes(`${acronym} (${expansion})`)
}
