/**
 * The built-in extractor: compromise (an English NLP library, no service, no model download).
 * Entities are the people, places and organisations it tags, plus proper-noun phrases and
 * acronyms as concepts. Claims are subject–verb–object triples read off each sentence: the
 * noun phrase just before the sentence's first verb phrase, the verb's infinitive (prefixed
 * "not " when negated), and the first noun phrase after it (an entity when the chunk names it
 * as one, otherwise literal text). This is CPU work: the worker runs it on a thread pool
 * (extract-pool.ts), never on its event loop.
 */
import nlp from 'compromise'
import type { Extraction } from './extraction.js'
import { normalizeName } from './normalize.js'

type Doc = ReturnType<typeof nlp>

/** reStructuredText and Markdown markup that would read as words: roles, backticks, directives. */
export function plainProse(text: string): string {
  return text
    .replace(/^\s*\.\. .*$/gm, ' ')
    .replace(/^[=\-~^"'`#*+]{3,}\s*$/gm, ' ')
    .replace(/:[a-z:]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`/g, '$1')
    .replace(/`+([^`]*)`+_?/g, '$1')
    .replace(/\*\*?([^*]+)\*\*?/g, '$1')
    .replace(/^\s*[#>]+\s*/gm, '')
    .replace(/^\s{4,}\S.*$/gm, ' ')
}

/** Proper-noun phrases, less what compromise capitalises for other reasons (dates, sentence starts). */
function properNouns(doc: Doc) {
  return doc.match('#ProperNoun+').not('(#Date|#Month|#WeekDay|#Pronoun|#Preposition|#Conjunction|#Determiner)')
}

/** Pronouns and demonstratives name nothing on their own: no claim is made about "it". */
const PRONOUN = /^(i|you|he|she|it|we|they|them|him|her|us|me|this|that|these|those|there|here|who|which|what|one|someone|something|anything|everything)(\b|'|’)/i

function tagged(doc: { out(format: 'array'): unknown }, kind: string, into: Map<string, { name: string; kind: string }>) {
  for (const name of doc.out('array') as string[]) {
    const key = normalizeName(name)
    if (key.length >= 2 && !into.has(key)) into.set(key, { name, kind })
  }
}

export function extractBuiltin(text: string): Extraction {
  const doc = nlp(plainProse(text))
  const known = new Map<string, { name: string; kind: string }>()
  tagged(doc.people(), 'person', known)
  tagged(doc.places(), 'place', known)
  tagged(doc.organizations(), 'organisation', known)
  tagged(properNouns(doc), 'concept', known)
  tagged(doc.match('#Acronym'), 'concept', known)

  const entities: Extraction['entities'] = []
  const counts = new Map<string, number>()
  for (const name of properNouns(doc).out('array') as string[]) {
    const key = normalizeName(name)
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  for (const [key, e] of known) {
    for (let i = 0; i < Math.max(1, counts.get(key) ?? 1); i++) entities.push({ name: e.name, kind: e.kind })
  }

  const claims: Extraction['claims'] = []
  doc.sentences().forEach((sentence) => {
    const claim = sentenceClaim(sentence as unknown as Doc, known)
    if (claim) claims.push(claim)
  })
  return { entities, claims }
}

function sentenceClaim(sentence: Doc, known: Map<string, unknown>): Extraction['claims'][number] | null {
  const verb = sentence.verbs().first()
  if (!verb.found) return null
  const text: string = sentence.text()
  const verbText: string = verb.text()
  const at = text.indexOf(verbText)
  if (at < 0) return null
  const phrases = (sentence.nouns().out('array') as string[]).map((p) => ({ p, i: text.indexOf(p) })).filter((x) => x.i >= 0)
  const subject = phrases.filter((x) => x.i + x.p.length <= at).at(-1)?.p
  const object = phrases.find((x) => x.i >= at + verbText.length)?.p
  if (!subject || !object || normalizeName(subject).length < 2 || PRONOUN.test(subject) || PRONOUN.test(object)) return null
  const negated: boolean = verb.has('#Negative')
  const main = verb.terms().last() as unknown as Doc
  const infinitive = String(main.verbs().toInfinitive().text() || main.text()).toLowerCase()
  if (!/^[a-z][a-z' -]*$/.test(infinitive)) return null
  return {
    subject,
    predicate: negated ? `not ${infinitive}` : infinitive,
    object,
    objectIsEntity: known.has(normalizeName(object)),
  }
}
