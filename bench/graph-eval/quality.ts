/**
 * Whether a true claim is also informative (docs/memory-graph.md, "The evaluation", the rule
 * written out): its object is a whole phrase, not cut off and not vacuous, and it keeps the
 * negation, modality, past tense and end date its sentence gives. Pure functions.
 */
import nlp from 'compromise'
import { normalizeName } from '../../src/graph/extract/normalize.js'
import type { LabeledClaim } from './schema.js'

/** A produced claim as scored; `modality`, `past` and `until` when the extractor gives them. */
export interface ScoredClaim {
  subject: string
  predicate: string
  object: string
  objectIsEntity: boolean
  when?: string
  until?: string
  modality?: string
  past?: boolean
}

/** Objects that say nothing on their own ("Git -do-> everything"). */
const VACUOUS = new Set([
  'it',
  'its',
  'this',
  'that',
  'these',
  'those',
  'them',
  'they',
  'he',
  'she',
  'one',
  'ones',
  'all',
  'everything',
  'something',
  'anything',
  'nothing',
  'some',
  'any',
  'more',
  'most',
  'much',
  'many',
  'other',
  'others',
  'same',
  'such',
  'thing',
  'things',
  'way',
  'lot',
  'part',
  'use',
  'last',
  'first',
])

/** Word classes a whole noun phrase does not end with ("infrastructure for", "the last two"). */
const CUT_TAGS = ['Determiner', 'Preposition', 'Conjunction', 'Adjective', 'Adverb', 'Value', 'Pronoun']

/** Words that end the head noun phrase of a labeled object ("acronym for Still In Development"). */
const PHRASE_END = new Set(['of', 'for', 'in', 'on', 'to', 'from', 'with', 'by', 'at', 'as', 'that', 'which', 'who', 'and', 'or', 'when', 'if', 'into', 'than'])

const words = (s: string) =>
  normalizeName(s)
    .split(/[^\p{L}\p{N}+]+/u)
    .filter(Boolean)
const stem = (word: string) => word.toLowerCase().replace(/(ing|ed|es|s|e)$/, '')

/** The labeled object's head: the last word of its first noun phrase. */
export function headWord(object: string): string | undefined {
  const ws = words(object)
  const end = ws.findIndex((w, i) => i > 0 && PHRASE_END.has(w))
  return (end < 0 ? ws : ws.slice(0, end)).at(-1)
}

/** Cut off or vacuous: ends in a determiner, preposition, adjective, number...; or is only a pronoun or filler word. */
export function objectCutOff(object: string): boolean {
  const ws = words(object)
  if (ws.length === 0 || ws.every((w) => VACUOUS.has(w))) return true
  const terms = nlp(object).terms().json() as { terms: { tags: string[] }[] }[]
  const last = terms.at(-1)?.terms[0]?.tags ?? []
  return !last.includes('Noun') && !last.includes('Acronym') && CUT_TAGS.some((t) => last.includes(t))
}

const MODAL_FORMS: Record<string, string[]> = {
  can: ['can', 'could'],
  may: ['may', 'might'],
  might: ['might', 'may'],
  must: ['must'],
  should: ['should'],
  will: ['will', 'would'],
  would: ['would'],
  could: ['could'],
  shall: ['shall'],
}

const keepsModality = (c: ScoredClaim, m: string) => {
  const forms = MODAL_FORMS[m] ?? [m]
  return (c.modality !== undefined && forms.includes(c.modality)) || c.predicate.split(/\s+/).some((t) => forms.includes(t))
}

const keepsPast = (c: ScoredClaim) => c.past === true || c.until !== undefined || /^(was|were|had|did|used)\b/.test(c.predicate)

const keepsUntil = (c: ScoredClaim, until: string) => c.until !== undefined && words(c.until).some((w) => words(until).includes(w))

/**
 * A claim already matched to its label (so true, with its negation agreeing) is informative when
 * its object is whole (an entity, or a literal holding the label's head word and not cut off)
 * and it keeps the label's modality, past tense and end date.
 */
export function isInformative(c: ScoredClaim, label: LabeledClaim): boolean {
  if (!label.objectIsEntity) {
    const head = headWord(label.object)
    if (head && !words(c.object).some((w) => stem(w) === stem(head))) return false
    if (objectCutOff(c.object)) return false
  }
  if (label.modality && !keepsModality(c, label.modality)) return false
  if (label.past && !keepsPast(c)) return false
  if (label.until && !keepsUntil(c, label.until)) return false
  return true
}

/** The claim an extractor returns, read with whatever time, modality and tense fields it carries. */
export function scoredClaim(c: { subject: string; predicate: string; object: string; objectIsEntity: boolean; validFrom?: string | null }): ScoredClaim {
  const extra = c as Record<string, unknown>
  const str = (...keys: string[]) => keys.map((k) => extra[k]).find((v): v is string => typeof v === 'string' && v.length > 0)
  return {
    subject: c.subject,
    predicate: c.predicate,
    object: c.object,
    objectIsEntity: c.objectIsEntity,
    when: c.validFrom ?? undefined,
    until: str('validTo', 'validUntil', 'until'),
    modality: str('modality'),
    past: extra.past === true || extra.tense === 'past',
  }
}
