/**
 * A claim as a sentence an operator reads: the predicate's lemma ("be", "work with", "not
 * support") conjugated for a third-person subject ("is", "works with", "does not support"), a
 * passive or a birth in the past ("was elected", "was born in"), a modal kept ("can prevent",
 * "must not include") and a state the text put in the past ("was not", "had"). Claims are stored as lemmas so
 * that one fact said in two tenses is one claim; this is only how they are shown. A claim the text
 * dates reads in the past, with its dates (docs/memory-graph.md, "Time on every fact").
 */
import nlp from 'compromise'
import { normalizeName } from '../extract/normalize.js'

const IRREGULAR: Record<string, string> = { be: 'is', have: 'has', do: 'does', go: 'goes' }

function thirdPerson(verb: string): string {
  if (IRREGULAR[verb]) return IRREGULAR[verb]
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`
  return `${verb}s`
}

/** "be elected", "be born in", "be based on": past participles after "be" read in the past. */
const PARTICIPLE = /^(born|\w+ed|\w+en|made|built|held|led|sold|told|won|written|known|given|taken|chosen|run)$/

const MODALS = new Set(['can', 'could', 'may', 'might', 'must', 'shall', 'should', 'will', 'would'])

export function verbPhrase(predicate: string): string {
  const words = predicate.trim().split(/\s+/)
  const negated = words[0] === 'not'
  const [verb, ...rest] = negated ? words.slice(1) : words
  if (!verb) return predicate
  // Modality and a past state are kept as the extractor stored them: "can prevent", "not must include", "not was".
  if (MODALS.has(verb) && rest.length > 0) return negated ? `${verb === 'can' ? 'cannot' : `${verb} not`} ${rest.join(' ')}` : `${verb} ${rest.join(' ')}`
  if (verb === 'used' && rest[0] === 'to') return [negated ? 'did not use' : 'used', ...rest].join(' ')
  if (verb === 'was') return ['was', ...(negated ? ['not'] : []), ...rest].join(' ')
  if (verb === 'had') return negated ? ['did not have', ...rest].join(' ') : ['had', ...rest].join(' ')
  if (verb === 'be') {
    // "be used to write" says what a thing serves for, not an event in the past.
    const past = rest[0] !== undefined && PARTICIPLE.test(rest[0]) && !(rest[0] === 'used' && rest[1] === 'to')
    return [past ? 'was' : 'is', ...(negated ? ['not'] : []), ...rest].join(' ')
  }
  if (negated) return ['does not', verb, ...rest].join(' ')
  return [thirdPerson(verb), ...rest].join(' ')
}

/** Lemmas compromise reads as another verb's past ("found" as find's): their own past. */
const PAST: Record<string, string> = { found: 'founded', be: 'was' }

function pastOf(verb: string): string {
  if (PAST[verb]) return PAST[verb]
  const forms = nlp(`they ${verb}`).verbs().conjugate()[0] as { PastTense?: string } | undefined
  return forms?.PastTense ?? `${verb.replace(/e$/, '')}ed`
}

/** The predicate in the past, for a claim the text dates: "led", "did not support", "was elected". */
export function pastVerbPhrase(predicate: string): string {
  const words = predicate.trim().split(/\s+/)
  const negated = words[0] === 'not'
  const [verb, ...rest] = negated ? words.slice(1) : words
  if (!verb) return predicate
  if (verb === 'be') return ['was', ...(negated ? ['not'] : []), ...rest].join(' ')
  if (negated) return ['did not', verb, ...rest].join(' ')
  return [pastOf(verb), ...rest].join(' ')
}

/** When a claim held, as its text dates it (claim.valid_from, claim.valid_to). */
export interface ClaimTime {
  from?: string | null
  until?: string | null
}

/** " from April 1996 until December 1997", " in August 1993", " until March 1996", or nothing. */
export function timePhrase(time: ClaimTime | undefined): string {
  if (time?.from && time.until) return ` from ${time.from} until ${time.until}`
  if (time?.from) return ` in ${time.from}`
  return time?.until ? ` until ${time.until}` : ''
}

/**
 * The claim as a sentence. A claim the text dates is a fact of the past and reads in the past
 * with its dates ("Bruce Perens led Debian from April 1996 until December 1997."); an undated one
 * in the present. Negation stays either way ("does not support", "did not support").
 */
export function claimSentence(subject: string, predicate: string, object: string, time?: ClaimTime): string {
  const dates = timePhrase(time)
  const verb = dates ? pastVerbPhrase(predicate) : verbPhrase(predicate)
  const text = `${subject} ${verb} ${object}${dates}`.replace(/\s+/g, ' ').trim()
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`
}

/**
 * Whether a claim's object is its subject's own name: "Free Software Foundation stand for Free
 * Software Foundation", an acronym's expansion once dedup folded the acronym into it. It says
 * nothing the entity's aliases do not, so a profile leaves it out.
 */
export const restatesSubject = (subject: string, object: string) => normalizeName(subject) === normalizeName(object)
