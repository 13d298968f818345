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
  let k = i
  for (; k < to; k++) {
    const t = s[k]
    const prev = terms.at(-1)
    if (prev && /[,;:()—]/.test(prev.post)) break
    if (COMPLEMENT.has(t.normal) && terms.some(nounLike) && phraseStart(s[k + 1]) && k + 1 < to) {
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
  while (terms.length > 0 && (COMPLEMENT.has(terms.at(-1)?.normal ?? '') || has(terms.at(-1), 'Determiner', 'Preposition'))) terms.pop()
  // The head is the last noun before the first complement: it must name a thing.
  const firstComplement = terms.findIndex((t) => COMPLEMENT.has(t.normal))
  const core = firstComplement < 0 ? terms : terms.slice(0, firstComplement)
  const head = [...core].reverse().find((t) => has(t, 'Noun') && !has(t, 'Pronoun', 'Adjective'))
  if (!head || VACUOUS.has(head.normal)) return undefined
  // A bare date is the claim's time (its `when`), not its object.
  if (terms.every((t) => has(t, 'Month', 'Date', 'Value') || /^(1[89]|20)\d\d(s)?$/.test(t.normal))) return undefined
  return terms
    .map((t, n) => t.text + (n < terms.length - 1 ? ' ' : ''))
    .join('')
    .replace(/[,;:.!?)]+$/, '')
}
