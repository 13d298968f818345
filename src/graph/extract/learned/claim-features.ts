/**
 * What the learned layer sees of a claim the rules extracted (docs/memory-graph.md, "A learned
 * layer, scored leaving one package out"): generic features of its predicate (lemma, word count,
 * negation, modal), of its subject and object (kinds, entity or literal, the literal's length and
 * last word's tag, numbers and dates, the entity layer's keep probability), of the sentence it came
 * from (length, condition or question, how far the verb stands from the subject, whether the
 * subject was a pronoun or "the project") and of the rule that made it. No feature names a
 * package, a file or an answer.
 */
import { knownTag, type Sentence, type Term } from '../sentence-terms.js'

const MODALS = new Set(['can', 'cannot', 'could', 'may', 'might', 'must', 'shall', 'should', 'will', 'would'])
const CONDITIONS = new Set(['if', 'unless', 'when', 'whether', 'whenever', 'otherwise'])
const BROAD_TAGS = ['Determiner', 'Preposition', 'Conjunction', 'Verb', 'Noun', 'Adjective', 'Adverb', 'Value', 'Pronoun', 'ProperNoun', 'Gerund', 'Plural']

/** Where a claim came from: the sentence relations, or a rule reading the block ("codename", "current-value", "acronym"). */
export type ClaimSource = 'sentence' | 'codename' | 'current-value' | 'acronym'

/** How the sentence named the subject: by a name, by "he"/"it", or by "the project". */
export type SubjectVia = 'name' | 'pronoun' | 'reference'

export interface ClaimContext {
  predicate: string
  object: string
  objectIsEntity: boolean
  when?: string
  source: ClaimSource
  subjectKind?: string
  objectKind?: string
  /** The entity layer's probability of keeping the subject (and an entity object), when it judged them. */
  subjectKeep?: number
  objectKeep?: number
  /** Sentence claims only: the sentence, where the subject stands and ends, and how it was named. */
  sentence?: Sentence
  subjectAt?: number
  subjectEnd?: number
  subjectVia?: SubjectVia
}

const bucket = (n: number, edges: readonly number[]) => {
  const i = edges.findIndex((e) => n <= e)
  return i < 0 ? `>${edges.at(-1)}` : String(edges[i])
}
const probability = (p: number | undefined) => (p === undefined ? 'none' : (Math.min(Math.floor(p * 5), 4) / 5).toFixed(1))
const broad = (t: Term | undefined) => (t ? BROAD_TAGS.filter((tag) => t.tags.has(tag)) : [])

function literalFeatures(object: string, sentence: Sentence | undefined, out: Set<string>): void {
  const words = object.split(/\s+/).filter(Boolean)
  out.add(`literal-words=${bucket(words.length, [1, 2, 3, 5, 8])}`)
  const last = (words.at(-1) ?? '').toLowerCase().replace(/[^\p{L}\p{N}'’.+/-]/gu, '')
  const first = (words[0] ?? '').toLowerCase()
  const inSentence = (w: string) => sentence?.findLast((t) => t.normal === w)
  const lastTags = broad(inSentence(last))
  for (const tag of lastTags.length ? lastTags : [knownTag(last) || 'unknown']) out.add(`literal-last-tag=${tag}`)
  for (const tag of broad(inSentence(first))) out.add(`literal-first-tag=${tag}`)
  out.add(`literal-first=${first.slice(0, 12)}`)
  if (/^\p{Lu}/u.test(words.at(-1) ?? '')) out.add('literal-last-capitalised')
  if (/[,;:()]/.test(object)) out.add('literal-punctuation')
}

function sentenceFeatures(c: ClaimContext, s: Sentence, out: Set<string>): void {
  out.add(`sentence-words=${bucket(s.length, [6, 10, 15, 25, 40])}`)
  if (s.some((t) => CONDITIONS.has(t.normal))) out.add('sentence-condition')
  if (s.at(-1)?.post.includes('?')) out.add('sentence-question')
  if (s.some((t) => t.post.includes(':') || t.pre.includes('('))) out.add('sentence-colon-or-parenthesis')
  const at = c.subjectAt ?? 0
  const end = c.subjectEnd ?? at + 1
  out.add(at === 0 ? 'subject-initial' : `subject-at=${bucket(at, [1, 3, 6])}`)
  const verb = s.findIndex((t, i) => i >= end && t.tags.has('Verb'))
  out.add(`subject-verb-distance=${verb < 0 ? 'none' : bucket(verb - end, [0, 1, 2, 5])}`)
  for (const tag of broad(s[end])) out.add(`after-subject=${tag}`)
  if (at > 0) out.add(`before-subject=${s[at - 1].normal}`)
}

export function claimFeatures(c: ClaimContext): string[] {
  const out = new Set<string>()
  const words = c.predicate.split(/\s+/)
  const negated = words[0] === 'not'
  const modal = words.find((w) => MODALS.has(w))
  const lemmas = words.filter((w) => w !== 'not' && !MODALS.has(w))
  out.add(`source=${c.source}`)
  out.add(`predicate=${c.predicate}`)
  out.add(`predicate-head=${lemmas[0] ?? ''}`)
  out.add(`predicate-last=${lemmas.at(-1) ?? ''}`)
  out.add(`predicate-words=${Math.min(words.length, 4)}`)
  if (negated) out.add('negated')
  if (modal) out.add(`modal=${modal}`)
  out.add(`subject-kind=${c.subjectKind ?? 'none'}`)
  out.add(`subject-via=${c.subjectVia ?? 'name'}`)
  out.add(`subject-keep=${probability(c.subjectKeep)}`)
  if (c.objectIsEntity) {
    out.add(`object-kind=${c.objectKind ?? 'none'}`)
    out.add(`object-keep=${probability(c.objectKeep)}`)
    out.add(`kinds=${c.subjectKind ?? 'none'} ${c.objectKind ?? 'none'}`)
  } else {
    out.add('object=literal')
    literalFeatures(c.object, c.sentence, out)
  }
  out.add(`predicate-head+object=${lemmas[0] ?? ''} ${c.objectIsEntity ? 'entity' : 'literal'}`)
  if (/\d/.test(c.object)) out.add('object-number')
  if (/\b(1[89]|20)\d\d\b/.test(c.object)) out.add('object-year')
  if (c.when) out.add('dated')
  if (c.sentence) sentenceFeatures(c, c.sentence, out)
  return [...out]
}
