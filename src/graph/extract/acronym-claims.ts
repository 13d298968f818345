/**
 * An acronym written beside its expansion, either way round: "Free Software Foundation (FSF)",
 * "the FHS (Filesystem Hierarchy Standard)". Each gives the claim "FSF stand for Free Software
 * Foundation" with the expansion as literal text, a single-valued fact (single-valued.ts), so two
 * sources that expand one acronym differently are a contradiction. Only when the expansion's words
 * give the acronym's letters, one word a letter in order, short function words skipped ("Open and
 * free technology community (OFTC)"): a parenthesis that only glosses a name is no expansion.
 */
import type { Extraction } from './extraction.js'

/** An all-capital word, perhaps with digits or a lower-case letter inside ("DFSG", "GnuPG" is not one). */
const ACRONYM = /^\p{Lu}[\p{Lu}\p{N}&]*\p{Lu}[\p{Lu}\p{N}]*s?$/u
/** Words an expansion may hold that give no letter ("Open and free ...", "Request for Comments"). */
const MINOR = new Set(['of', 'and', 'the', 'for', 'in', 'on', 'to', 'a', 'an', 'at', 'by', 'de', 'du', 'la', '&'])
const MAX_WORDS = 10

const lettersOf = (acronym: string) => [...acronym.replace(/s$/, '')].filter((c) => /\p{Lu}/u.test(c)).map((c) => c.toLowerCase())
const initial = (word: string) => word.match(/\p{L}/u)?.[0]?.toLowerCase()
/** Words of an expansion: hyphenated parts count apart ("Open-Source Initiative"). */
const wordsOf = (text: string) => text.split(/[\s-]+/).filter(Boolean)

/** Whether `words`, in order, give `letters` one word each, minor words skipped only inside. */
function spells(words: readonly string[], letters: readonly string[]): boolean {
  if (words.length === 0 || words.length > MAX_WORDS) return false
  let j = 0
  for (const [i, w] of words.entries()) {
    if (!/^[\p{L}\p{N}&'’]+$/u.test(w)) return false
    if (j < letters.length && initial(w) === letters[j]) j++
    else if (!MINOR.has(w.toLowerCase()) || i === 0 || i === words.length - 1) return false
  }
  return j === letters.length
}

/** "Free Software Foundation (FSF)": the fewest words before the parenthesis that spell the acronym. */
function expansionBefore(before: string, letters: readonly string[]): string | undefined {
  // "the Debian Project leader's (DPL)": the possessive belongs to the sentence, not to the name.
  const tokens = before
    .trimEnd()
    .replace(/['’]s$/, '')
    .split(/\s+/)
  for (let n = 1; n <= Math.min(tokens.length, MAX_WORDS); n++) {
    const words = tokens.slice(-n)
    // The expansion stops at punctuation that ends a phrase before it.
    if (words.slice(0, -1).some((w) => /[,;:.!?()"]$/.test(w))) return undefined
    if (/^[("]/.test(words[0])) return undefined
    if (spells(wordsOf(words.join(' ')), letters)) return words.join(' ')
  }
  return undefined
}

const LONG_FIRST = /([^()\n]*?)\s\((\p{Lu}[\p{L}\p{N}&]{1,9})\)/gu
const ACRONYM_FIRST = /(?:^|[\s"(])(\p{Lu}[\p{L}\p{N}&]{1,9}) \(([^()\n]{3,120})\)/gu

/**
 * "DFSG stands for ...", "Bash is an acronym for ...", "APT, short for ...", "GPG (an
 * abbreviation of ...)": said in words, so no spelling is asked.
 */
const SAYS = String.raw`(?:\s(?:stands|standing) for|\sis (?:an? )?(?:recursive )?(?:acronym|abbreviation|initialism|short) (?:for|of)|,\s(?:(?:which|that) stands for|(?:an? |the )?(?:recursive )?(?:acronym|abbreviation|initialism|short) (?:for|of))|\s\((?:stands for|(?:an? )?(?:acronym|abbreviation|short) (?:for|of)))`
const SAID = new RegExp(
  String.raw`(?:^|[\s"'‘“(])(\p{Lu}[\p{L}\p{N}+-]{1,20})["'”’]?${SAYS}\s(?:the\s)?["'‘“]?(\p{Lu}[^.,;:!?()"“”‘’\n]{2,80}?)["'”’]?(?=[.,;:!?)](?:\s|$)|$|\s\()`,
  'gmu',
)
const MAX_SAID_WORDS = 8

export function acronymClaims(block: string): Extraction['claims'] {
  const claims: Extraction['claims'] = []
  const add = (acronym: string, expansion: string) =>
    claims.push({ subject: acronym, predicate: 'stand for', object: expansion.replace(/^the\s+/i, ''), objectIsEntity: false })
  for (const m of block.matchAll(LONG_FIRST)) {
    if (!ACRONYM.test(m[2])) continue
    const expansion = expansionBefore(m[1], lettersOf(m[2]))
    if (expansion) add(m[2], expansion)
  }
  for (const m of block.matchAll(ACRONYM_FIRST)) {
    if (!ACRONYM.test(m[1])) continue
    const inside = m[2].trim()
    if (spells(wordsOf(inside), lettersOf(m[1]))) add(m[1], inside)
  }
  for (const m of block.matchAll(SAID)) if (wordsOf(m[2]).length <= MAX_SAID_WORDS) add(m[1], m[2].trim())
  return claims
}
