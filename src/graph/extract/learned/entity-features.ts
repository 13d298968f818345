/**
 * What the learned layer sees of a candidate name (docs/memory-graph.md, "A learned layer,
 * scored leaving one package out"): generic, linguistic features of the entity the rules
 * resolved and of each of its mentions: the shape of its words, its first and last word and
 * their endings, compromise's tags and lexicon, the words around each mention, the
 * punctuation it stands in, where in the sentence it stands, and how often the chunk names it.
 * No feature names a package, a file or an answer.
 */

import type { Mention, NamedEntity } from '../name-spans.js'
import { CORPORATE_SUFFIX, ORG_WORDS } from '../name-words.js'
import { knownTag, type Sentence, type Term } from '../sentence-terms.js'

/** The tags of a neighbouring word worth a feature: its broad part of speech. */
const BROAD_TAGS = ['Determiner', 'Preposition', 'Conjunction', 'Verb', 'Noun', 'Adjective', 'Adverb', 'Value', 'Pronoun', 'ProperNoun', 'Possessive']

/** "Debian" Xx, "GNU" X, "dpkg-deb" x-x, "Python 3.11" Xx d.d: each character class once per run. */
export function wordShape(word: string): string {
  return word
    .replace(/\p{Lu}/gu, 'X')
    .replace(/\p{Ll}/gu, 'x')
    .replace(/\p{N}/gu, 'd')
    .replace(/(.)\1+/g, '$1')
}

const lexicon = (word: string) => knownTag(word.toLowerCase()) || 'none'
const broad = (t: Term | undefined) => (t ? BROAD_TAGS.filter((tag) => t.tags.has(tag)) : ['edge'])

function mentionFeatures(s: Sentence, m: Mention, out: Set<string>): void {
  const before = s[m.start - 1]
  const after = s[m.end]
  out.add(`prev=${before?.normal ?? '^'}`)
  out.add(`next=${after?.normal ?? '$'}`)
  if (before && s[m.start - 2]) out.add(`prev2=${s[m.start - 2].normal} ${before.normal}`)
  for (const tag of broad(before)) out.add(`prevtag=${tag}`)
  for (const tag of broad(after)) out.add(`nexttag=${tag}`)
  if (before && /^\p{Lu}/u.test(before.text)) out.add('prev-capitalised')
  const pre = s[m.start].pre.trim()
  const post = s[m.end - 1].post.trim()
  if (pre) out.add(`pre=${pre.slice(-1)}`)
  if (post) out.add(`post=${post[0]}`)
  if (m.start === 0) out.add('mention:sentence-initial')
  else out.add('mention:inside')
  if (m.end === s.length) out.add('mention:sentence-final')
  if (s.length <= 4) out.add('mention:short-sentence')
  if (/['’]s$/.test(s[m.end - 1].text)) out.add('mention:possessive')
  for (const t of s.slice(m.start, m.end)) for (const tag of t.tags) out.add(`tag=${tag}`)
  if (s[m.end + 1]) out.add(`next2=${after.normal} ${s[m.end + 1].normal}`)
  // The verbs near it ("X wrote", "install X") and what the sentence says it is ("X is a tool").
  const verbBefore = s.slice(Math.max(0, m.start - 3), m.start).findLast((t) => t.tags.has('Verb'))
  const verbAfter = s.slice(m.end, m.end + 3).find((t) => t.tags.has('Verb'))
  if (verbBefore) out.add(`verb-before=${verbBefore.root}`)
  if (verbAfter) out.add(`verb-after=${verbAfter.root}`)
  if (after?.normal === 'is' || after?.normal === 'was' || after?.normal === 'are') {
    const noun = s.slice(m.end + 1, m.end + 6).find((t) => t.tags.has('Noun') && !t.tags.has('Pronoun'))
    if (noun) out.add(`is-a=${noun.root}`)
  }
}

/**
 * The features of one resolved entity. `mentions` are the mentions that name it; `lowerCase`
 * the words the chunk writes in lower case anywhere.
 */
export function entityFeatures(sentences: readonly Sentence[], entity: NamedEntity, mentions: readonly Mention[], lowerCase: ReadonlySet<string>): string[] {
  const out = new Set<string>()
  const words = entity.name.split(/\s+/)
  const first = words[0]
  const last = words.at(-1) ?? first
  out.add(`rule-kind=${entity.kind}`)
  out.add(`words=${Math.min(words.length, 4)}`)
  out.add(`shape=${words.map(wordShape).join(' ').slice(0, 24)}`)
  out.add(`first-shape=${wordShape(first)}`)
  out.add(`last-shape=${wordShape(last)}`)
  out.add(`name=${entity.key}`)
  out.add(`first=${first.toLowerCase()}`)
  out.add(`last=${last.toLowerCase()}`)
  out.add(`last-suffix=${last.toLowerCase().slice(-3)}`)
  out.add(`first-lexicon=${lexicon(first)}`)
  out.add(`last-lexicon=${lexicon(last)}`)
  out.add(`chars=${Math.min(Math.floor(entity.name.length / 4), 6)}`)
  out.add(`mentions=${Math.min(entity.mentions, 3)}`)
  const surfaces = new Set(mentions.map((m) => m.surface))
  if (surfaces.size > 1) out.add('several-surfaces')
  if (/\d/.test(entity.name)) out.add('has-digit')
  if (/^[\p{Lu}\d\s&.-]+$/u.test(entity.name)) out.add('all-caps')
  if (words.some((w) => /\p{Ll}\p{Lu}/u.test(w))) out.add('camel-case')
  if (/^\p{Ll}/u.test(entity.name)) out.add('lower-start')
  for (const [mark, name] of [
    ['-', 'hyphen'],
    ['.', 'dot'],
    ['+', 'plus'],
    ['/', 'slash'],
    ['&', 'ampersand'],
  ])
    if (entity.name.includes(mark)) out.add(`has-${name}`)
  if (CORPORATE_SUFFIX.has(last.toLowerCase()) || ORG_WORDS.test(last)) out.add('organisation-word')
  if (words.length === 1 && lowerCase.has(first.toLowerCase())) out.add('written-lower-too')
  if (mentions.every((m) => m.start === 0)) out.add('always-sentence-initial')
  const known = words.filter((w) => lexicon(w) !== 'none').length
  out.add(`known-words=${known === 0 ? 'none' : known === words.length ? 'all' : 'some'}`)
  out.add(`rule-kind+words=${entity.kind} ${Math.min(words.length, 3)}`)
  out.add(`rule-kind+shape=${entity.kind} ${wordShape(last)}`)
  for (const m of mentions) mentionFeatures(sentences[m.sentence], m, out)
  return [...out]
}
