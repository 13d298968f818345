/**
 * A claim's literal object: the noun phrase after the verb, taken whole with the complements
 * that finish it, or not at all (docs/memory-graph.md, "Extractors").
 */
import { has, type Sentence, type Term } from './sentence-terms.js'

const MAX_LITERAL_TERMS = 12

export const verbish = (t: Term) => has(t, 'Verb', 'Auxiliary', 'Copula', 'Modal') && !has(t, 'Gerund', 'Preposition')

/** Prepositions that carry a noun phrase's complement ("infrastructure for packet filtering"). */
const COMPLEMENT = new Set(['of', 'for', 'to', 'in', 'on', 'with', 'from', 'between', 'about', 'over', 'under', 'into', 'against'])
/** Heads that say nothing on their own: "Git does everything", "the last two". */
const VACUOUS = new Set([
  'everything',
  'something',
  'anything',
  'nothing',
  'all',
  'one',
  'ones',
  'thing',
  'things',
  'lot',
  'way',
  'part',
  'kind',
  'sort',
  'bit',
  'rest',
  'same',
  'other',
  'others',
  'both',
  'each',
  'none',
])

const nounLike = (t: Term) => has(t, 'Noun', 'Value') && !has(t, 'Pronoun')
const phraseStart = (t: Term | undefined) =>
  t !== undefined && has(t, 'Determiner', 'Adjective', 'Noun', 'Value', 'Possessive') && !has(t, 'Pronoun') && !verbish(t)

/** "changes to files", "errors in packages": a word in -s after a preposition is a plural noun, not a verb (compromise reads some as verbs). */
export const pluralAfterPreposition = (prev: Term | undefined, t: Term | undefined) =>
  prev !== undefined &&
  t !== undefined &&
  (has(prev, 'Preposition') || COMPLEMENT.has(prev.normal)) &&
  has(t, 'PresentTense') &&
  /[^s']s$/.test(t.normal) &&
  !has(t, 'Auxiliary', 'Copula', 'Modal', 'Pronoun')

const CONJUNCTIONS = new Set(['and', 'or'])

/**
 * The noun phrase from `from` as a literal object, whole: its head noun with the complements
 * that finish it ("the infrastructure for packet filtering in the kernel"), up to a clause
 * break, a verb or a comma. Undefined when there is no noun phrase, when its head says nothing
 * ("everything", "the last two"), or when it runs past MAX_LITERAL_TERMS (it would be cut off).
 */
export function literalAfter(s: Sentence, from: number, to: number): string | undefined {
  let i = from
  while (i < to && has(s[i], 'Determiner', 'Adverb') && !has(s[i], 'Negative')) i++
  const terms: Term[] = []
  /** Where the last coordinated noun phrase began ("packages and documentation"): cut back to it when a verb follows (a clause, not a noun). */
  let conjunct = -1
  let k = i
  for (; k < to; k++) {
    const t = s[k]
    const prev = terms.at(-1)
    // A list of nouns goes on past its commas when "and" or "or" closes it: "packages, documentation and support".
    if (prev && /[,;:()—]/.test(prev.post) && !(/^,\s*$/.test(prev.post) && closesList(s, k, to) && phraseStart(t))) break
    if (prev && /^,\s*$/.test(prev.post) && conjunct < 0) conjunct = terms.length
    if (COMPLEMENT.has(t.normal) && terms.some(nounLike) && (phraseStart(s[k + 1]) || pluralAfterPreposition(t, s[k + 1])) && k + 1 < to) {
      terms.push(t)
      continue
    }
    if (CONJUNCTIONS.has(t.normal) && terms.some(nounLike) && phraseStart(s[k + 1]) && k + 1 < to) {
      if (conjunct < 0) conjunct = terms.length
      terms.push(t)
      continue
    }
    if (pluralAfterPreposition(prev, t)) {
      terms.push(t)
      continue
    }
    const afterPreposition = prev !== undefined && COMPLEMENT.has(prev.normal)
    if (has(t, 'Determiner') && !has(t, 'Negative')) {
      if (!afterPreposition) break
      terms.push(t)
      continue
    }
    // A gerund after a noun names a thing ("packet filtering") unless it takes an object.
    const next = s[k + 1]
    const compoundGerund =
      has(t, 'Gerund') && prev !== undefined && nounLike(prev) && (next === undefined || k + 1 >= to || COMPLEMENT.has(next.normal) || /[,;:.]/.test(t.post))
    // A bare verb form right before a noun modifies it ("overwrite accidents").
    const adjunct = has(t, 'Infinitive') && !has(t, 'Auxiliary', 'Copula', 'Modal') && has(s[k + 1], 'Noun') && !has(s[k + 1], 'Pronoun', 'Verb') && k + 1 < to
    if (!compoundGerund && !adjunct && (has(t, 'Preposition', 'Conjunction', 'Pronoun', 'Gerund') || verbish(t))) break
    terms.push(t)
    if (terms.length > MAX_LITERAL_TERMS) return undefined
  }
  // "packages and Ubuntu uses them": what followed the conjunction was a clause's subject.
  if (conjunct >= 0 && k < s.length && k === to && verbish(s[k])) terms.splice(conjunct)
  while (
    terms.length > 0 &&
    (COMPLEMENT.has(terms.at(-1)?.normal ?? '') || CONJUNCTIONS.has(terms.at(-1)?.normal ?? '') || has(terms.at(-1), 'Determiner', 'Preposition'))
  )
    terms.pop()
  // A list cut before its last item ("packages, documentation" of "... and support") keeps only its first item.
  const last = terms.at(-1)
  if (conjunct >= 0 && last && (/,/.test(last.post) || CONJUNCTIONS.has(s[s.indexOf(last) + 1]?.normal ?? ''))) terms.splice(conjunct)
  // "range of free software developed [by ...]": a participle after the noun opens a clause the phrase does not hold.
  if (terms.length > 1 && /ed$/.test(terms.at(-1)?.normal ?? '') && !has(terms.at(-1), 'Noun') && has(terms.at(-2), 'Noun')) terms.pop()
  // A phrase that ends in an adjective or adverb ("10-60% faster") is cut off before its noun, or is no noun phrase.
  if (has(terms.at(-1), 'Adjective', 'Adverb', 'Comparative', 'Superlative') && !has(terms.at(-1), 'Noun')) return undefined
  // The head is the last noun before the first complement: it must name a thing.
  const firstComplement = terms.findIndex((t) => COMPLEMENT.has(t.normal))
  const core = firstComplement < 0 ? terms : terms.slice(0, firstComplement)
  const head = [...core].reverse().find((t) => has(t, 'Noun') && !has(t, 'Pronoun', 'Adjective'))
  if (!head || VACUOUS.has(head.normal)) return undefined
  // A bare date is the claim's time (its `when`), not its object.
  if (terms.every((t) => has(t, 'Month', 'Date', 'Value') || /^(1[89]|20)\d\d(s)?$/.test(t.normal))) return undefined
  return terms
    .map((t, n) => t.text + (n < terms.length - 1 ? (/^,/.test(t.post) ? ', ' : ' ') : ''))
    .join('')
    .replace(/[,;:.!?)]+$/, '')
}

/** "and" or "or" comes before the span's end with only nouns, adjectives and commas on the way: the comma is inside a list. */
function closesList(s: Sentence, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    if (CONJUNCTIONS.has(s[k].normal)) return k > from
    if (!phraseStart(s[k]) || /[;:()]/.test(s[k].post)) return false
  }
  return false
}
