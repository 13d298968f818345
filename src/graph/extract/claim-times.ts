/**
 * When each claim of a sentence held, from the sentence's time phrases (docs/memory-graph.md,
 * "Time on every fact"): "from April 1996 until December 1997", "between 1998 and 2001",
 * "1996-1998", "since 2005", "until March 1996", "as of 2010", "in August 1993". A phrase belongs
 * to the claim whose verb comes last before it ("Ian Murdock founded Debian in August 1993 and led
 * it until March 1996": `found` from August 1993, and the end belongs to "led", not to `found`,
 * even when "led it" gave no claim); a phrase before every
 * verb ("Since 2005, ...") belongs to every claim that has none of its own. A sentence with no
 * phrase leaves its claims' dates as the relations gave them (the sentence's date).
 */
import { has, type Sentence, type Term } from './sentence-terms.js'

export interface ClaimTime {
  /** When it became true, as the text writes it. */
  when?: string
  /** When it stopped being true, as the text writes it. */
  until?: string
}

interface Phrase extends ClaimTime {
  at: number
}

interface TimedClaim {
  subjectAt: number
  predicate: string
}

const YEAR = /^(1[89]\d\d|20\d\d)s?$/
const RANGE = /^(1[89]\d\d|20\d\d)[-–](1[89]\d\d|20\d\d)$/
const BE = new Set(['be', 'is', 'are', 'was', 'were', 'been', 'being', 'am'])
const UNTIL = new Set(['until', 'till', 'to', 'through', 'thru'])
const POINT = new Set(['in', 'on', 'during'])

const isYear = (t: Term | undefined) => t !== undefined && YEAR.test(t.normal)
const isDay = (t: Term | undefined) => t !== undefined && /^[0-3]?\d(st|nd|rd|th)?$/.test(t.normal) && Number.parseInt(t.normal, 10) <= 31

/** A date written from `i` ("1996", "April 1996", "June 17th, 1996", "17 June 1996", "May of 2000"): its text and where it ends. */
function dateAt(s: Sentence, i: number): { text: string; end: number } | undefined {
  const words = (from: number, to: number) =>
    s
      .slice(from, to)
      .map((t) => t.text)
      .join(' ')
      .replace(/[,;:.)]+$/, '')
  if (isYear(s[i])) return { text: s[i].text, end: i + 1 }
  let k = i
  if (isDay(s[k]) && has(s[k + 1], 'Month')) k++
  if (!has(s[k], 'Month')) return undefined
  k++
  if (isDay(s[k])) k++
  if (s[k]?.normal === 'of') k++
  return isYear(s[k]) ? { text: words(i, k + 1), end: k + 1 } : undefined
}

/** The sentence's time phrases, where each starts. */
export function timePhrases(s: Sentence): Phrase[] {
  const phrases: Phrase[] = []
  for (let i = 0; i < s.length; i++) {
    const word = s[i].normal
    const range = s[i].text.match(RANGE)
    if (range) {
      phrases.push({ at: i, when: range[1], until: range[2] })
      continue
    }
    const date = dateAt(s, i + 1)
    if (!date) continue
    if (word === 'from' || word === 'between') {
      const glue = s[date.end]?.normal
      const end = glue && (word === 'between' ? glue === 'and' : UNTIL.has(glue)) ? dateAt(s, date.end + 1) : undefined
      phrases.push({ at: i, when: date.text, ...(end ? { until: end.text } : {}) })
      i = (end ?? date).end - 1
    } else if (word === 'since' || (word === 'of' && s[i - 1]?.normal === 'as')) {
      phrases.push({ at: i, when: date.text })
      i = date.end - 1
    } else if (word === 'until' || word === 'till') {
      phrases.push({ at: i, until: date.text })
      i = date.end - 1
    } else if (POINT.has(word)) {
      phrases.push({ at: i, when: date.text })
      i = date.end - 1
    }
  }
  return phrases
}

/** Where the claim's verb stands: the first word after its subject that is the predicate's verb. */
function verbAt(s: Sentence, claim: TimedClaim): number {
  const verb = claim.predicate.replace(/^not /, '').split(' ')[0]
  for (let k = claim.subjectAt + 1; k < s.length; k++) {
    const t = s[k]
    if (t.root === verb || t.normal === verb || (verb === 'be' && (BE.has(t.normal) || BE.has(t.root)))) return k
  }
  return claim.subjectAt + 1
}

function startsVerbGroupBetween(s: Sentence, from: number, to: number): boolean {
  const verb = (t: Term | undefined) => has(t, 'Verb', 'Auxiliary', 'Copula', 'Modal') && !has(t, 'Gerund')
  for (let j = from + 1; j < to; j++) if (verb(s[j]) && !verb(s[j - 1]) && !has(s[j - 1], 'Adverb', 'Negative')) return true
  return false
}

/**
 * Each claim's time, in the order given; undefined for every claim when the sentence has no time
 * phrase (its dates stay as the relations read them). A claim no phrase reaches gets no time.
 */
export function claimTimes(s: Sentence, claims: readonly TimedClaim[]): (ClaimTime | undefined)[] {
  const phrases = timePhrases(s)
  if (phrases.length === 0) return claims.map(() => undefined)
  const verbs = claims.map((c) => verbAt(s, c))
  const own: ClaimTime[] = claims.map(() => ({}))
  const leading: ClaimTime = {}
  for (const p of phrases) {
    const before = verbs.filter((v) => v < p.at)
    const target = before.length ? Math.max(...before) : undefined
    // A verb group of its own between the claim's verb and the phrase ("and led it until ...")
    // owns the phrase, whether or not it gave a claim.
    if (target !== undefined && startsVerbGroupBetween(s, target, p.at)) continue
    const into = (t: ClaimTime) => {
      t.when ??= p.when
      t.until ??= p.until
    }
    if (target === undefined) into(leading)
    else {
      for (const [n, v] of verbs.entries()) if (v === target) into(own[n])
    }
  }
  return own.map((t) => {
    const time = t.when || t.until ? t : leading
    return { ...(time.when ? { when: time.when } : {}), ...(time.until ? { until: time.until } : {}) }
  })
}
