/**
 * Rules that say two names of one kind name one thing where trigrams cannot: an acronym and its
 * expansion ("DPL" / "Debian Project Leader"), a name and the same name with designators,
 * initials or its own acronym added ("Debian project" / "Debian", "Richard M. Stallman" /
 * "Richard Stallman", "Free Software Foundation FSF"), and a partial name: a person's first or
 * last name ("Akkerman" / "Wichert Akkerman") or a phrase ending a longer name after its owner's
 * ("LTS team" / "Debian LTS team"), never one word ("Linux" is not "SUSE Linux"). Word order always counts ("Document Foundation" is not "Foundation
 * Documents"). Names are normalized (normalizeName).
 */
import { knownTag } from '../extract/lexicon.js'
import { compatibleNames } from './name-compatibility.js'

export type NameRule = 'acronym' | 'designator' | 'partial-name'

/** Words that say what sort of thing a name is without telling two things apart. */
export const DESIGNATORS = new Set([
  'project',
  'projects',
  'team',
  'kernel',
  'language',
  'programming',
  'web',
  'server',
  'software',
  'system',
  'distribution',
  'corporation',
  'corp',
  'company',
  'inc',
  'inc.',
  'ltd',
  'ltd.',
  'gmbh',
  'llc',
  'studios',
  'report',
  'dr',
  'dr.',
  'mr',
  'mr.',
  'ms',
  'ms.',
  'prof',
  'prof.',
])
const FUNCTION_WORDS = new Set(['of', 'for', 'the', 'and', 'de', 'van', 'von', 'on', 'in', '&'])
const INITIAL = /^\p{L}\.?$/u
const VERSION = /^\d+(\.\d+)*$/

export function words(name: string): string[] {
  return name
    .split(/[\s,]+/)
    .map((w) => w.replace(/^[("']+|[)"',;:]+$/g, ''))
    .filter(Boolean)
}

const sameWord = (a: string, b: string) => compatibleNames(a, b)

/** The initials of a name's significant words ("debian project leader" -> "dpl"). */
export function initialsOf(tokens: readonly string[]): string {
  return tokens
    .filter((w) => !FUNCTION_WORDS.has(w))
    .map((w) => w[0])
    .join('')
}

/**
 * An English word rather than a name's own ("loading", "secure", "places"): compromise's lexicon
 * knows it as anything but a name, or it is a gerund. A name that adds such a word to another
 * ("Loading Linux", "Secure Shell") is a phrase about it or another thing, not its fuller form.
 */
export function englishWord(word: string): boolean {
  const tag = knownTag(word)
  return (tag !== '' && !/Name|Person|Place|Country|City|Organization/.test(tag)) || /^\p{L}{3,}ing$/u.test(word)
}

/**
 * `short` is one word of 3 to 6 letters (`fewest` to 6) spelling the initials of `long` (or of
 * long after the words they share), each initial taken from a word of letters ("ctrl d" and
 * "places->cd/dvd creator" spell nothing). Two letters are too few to say which expansion is
 * meant: "CD", "PC", "OS" and "FS" each fit many names, so only a text that defines one says
 * which (acronym-definitions.ts).
 */
export function isAcronymOf(short: string, long: string, fewest = 3): boolean {
  const s = words(short)
  const l = words(long)
  if (l.length < 2) return false
  const last = s.at(-1) ?? ''
  if (last.length < fewest || !/^\p{L}{2,6}$/u.test(last)) return false
  const shared = s.slice(0, -1)
  if (!shared.every((w, k) => l[k] !== undefined && sameWord(w, l[k]))) return false
  const rest = l.slice(shared.length)
  if (!rest.every((w) => FUNCTION_WORDS.has(w) || /^\p{L}([\p{L}'’-]+|\.)$/u.test(w))) return false
  return rest.length >= 2 && initialsOf(rest) === last
}

/**
 * Every word of `short` appears in `long` in order, and each word `long` adds is a designator,
 * an initial, or the acronym of the others.
 */
export function withDesignators(short: string, long: string): boolean {
  const s = words(short)
  const l = words(long)
  if (s.length === 0 || l.length <= s.length) return false
  let k = 0
  const extra: string[] = []
  for (const w of l) {
    if (k < s.length && sameWord(s[k], w)) k++
    else extra.push(w)
  }
  if (k < s.length) return false
  const acronym = initialsOf(s)
  // An initial is a middle initial ("Richard M. Stallman") or written with its period; "OS X" is not "OS".
  const initial = (w: string) => INITIAL.test(w) && (w.endsWith('.') || w !== l.at(-1))
  return extra.every((w) => DESIGNATORS.has(w) || initial(w) || (acronym.length >= 2 && w === acronym))
}

/**
 * `short` could be a partial of `long`: a person's first or last word, or for other kinds a
 * phrase of two words or more that ends the name after an owner's ("Technical Committee" /
 * "Debian Technical Committee"). A one-word name is a name of its own, and a qualifier before it
 * names another thing as often as the same one ("Linux" / "SUSE Linux", "GNU/Linux" / "Debian
 * GNU/Linux"), so it never stands for the longer name; except a release's codename after its
 * version ("Stretch" / "Debian 9 Stretch").
 */
export function isPartialOf(short: string, long: string, kind: string): boolean {
  const s = words(short)
  const l = words(long).filter((w) => !INITIAL.test(w))
  if (s.length === 0 || l.length <= s.length) return false
  if (kind === 'person') return s.length === 1 && s[0].length >= 3 && (sameWord(s[0], l[0]) || sameWord(s[0], l.at(-1) as string))
  if (kind === 'place') return false
  const tail = l.slice(l.length - s.length)
  if (s.length < 2 && !VERSION.test(l.at(-2) ?? '')) return false
  // "Shell" is not "Secure Shell", nor "Linux" "Loading Linux": the head must be a name's word.
  if (l.slice(0, l.length - s.length).some(englishWord)) return false
  return s.every((w, k) => sameWord(w, tail[k])) && s.join('').length >= 4
}

export interface RuleMatch {
  short: string
  long: string
  rule: NameRule
}

/**
 * Which rule, if any, makes `a` and `b` (one kind) one thing, naming the shorter of the two.
 * Partial names are only candidates: the caller keeps a partial that fits exactly one longer name.
 */
export function matchRule(a: string, b: string, kind: string): RuleMatch | null {
  if (a === b) return null
  const [short, long] = words(a).length < words(b).length || (words(a).length === words(b).length && a.length <= b.length) ? [a, b] : [b, a]
  if (isAcronymOf(short, long)) return { short, long, rule: 'acronym' }
  if (withDesignators(short, long)) return { short, long, rule: 'designator' }
  if (isPartialOf(short, long, kind)) return { short, long, rule: 'partial-name' }
  return null
}
