/**
 * The words and term tests that tell a proper name from a capitalised word (docs/memory-graph.md):
 * name particles, words that open a sentence but no name, document structure, organisation
 * words, and the English function words a name never starts or ends with.
 */
import { has, knownTag, knownWord, type Term } from './sentence-terms.js'

export const PARTICLES = new Set(['van', 'von', 'de', 'der', 'den', 'du', 'la', 'le', 'da', 'di', 'of', 'for'])
const LEADING = new Set([
  'each',
  'every',
  'some',
  'many',
  'most',
  'all',
  'several',
  'other',
  'others',
  'any',
  'both',
  'few',
  'no',
  'such',
  'our',
  'their',
  'his',
  'her',
  'its',
  'this',
  'that',
  'these',
  'those',
  'the',
  'a',
  'an',
  'dr',
  'dr.',
  'mr',
  'mr.',
  'ms',
  'ms.',
])
const STRUCTURE = new Set(['section', 'chapter', 'figure', 'table', 'example', 'note', 'appendix', 'part', 'step', 'see', 'tip', 'warning'])
export const CORPORATE_SUFFIX = new Set(['inc', 'inc.', 'ltd', 'ltd.', 'llc', 'gmbh', 'co.', 'corp.'])
/** Lower-case words that end an organisation's or a document's name after a capitalised one ("Debian security team"). */
export const NAME_HEADS = new Set(['team', 'policy', 'committee', 'group'])
export const ORG_WORDS =
  /^(foundation|corporation|inc\.?|ltd\.?|gmbh|llc|company|team|initiatives|centrum|labs|partners|institute|university|group|committee|society|association|consortium|council)$/i
const BREAK_AFTER = /[,;:()“”"[\]—–]|\.\s*$/
export const BREAK_BEFORE = /[(“"[]/

export const capitalised = (t: Term) => /^(\p{Lu}|\p{Ll}{1,3}\p{Lu})/u.test(t.text)
export const possessive = (t: Term) => /['’]s$/.test(t.text)
export const abbreviation = (t: Term) => /^(\p{Lu}\.|Inc\.|Ltd\.|Dr\.|St\.|Jr\.|Co\.|Corp\.)$/u.test(t.text) || /^\p{Lu}\.$/u.test(`${t.text}${t.post.trim()}`)

export function breaksAfter(t: Term, next: Term | undefined): boolean {
  if (next && BREAK_BEFORE.test(next.pre)) return true
  if (next && /^,\s*$/.test(t.post) && CORPORATE_SUFFIX.has(next.normal)) return false
  if (abbreviation(t) && /^\.?\s*$/.test(t.post)) return false
  return BREAK_AFTER.test(t.post)
}

/** The first term can start a name there: not a determiner, a date, nor an English word opening a sentence. */
export function nameStart(t: Term, sentenceStart: boolean): boolean {
  if (functionWord(t) && !has(t, 'Person', 'Place', 'Organization', 'Acronym')) return false
  // "Creating group", "Loading Linux": a gerund opens a phrase, not a name.
  if (has(t, 'Gerund') && /ing$/.test(t.normal) && !has(t, 'ProperNoun')) return false
  if (LEADING.has(t.normal) || STRUCTURE.has(t.normal) || has(t, 'Date', 'Month', 'WeekDay', 'Pronoun', 'Preposition', 'Conjunction', 'QuestionWord'))
    return false
  if (!sentenceStart) return true
  if (has(t, 'Person', 'Place', 'Organization', 'Acronym')) return true
  return !knownWord(t.normal) && !has(t, 'Verb', 'Adverb', 'Adjective', 'Determiner', 'Value', 'Plural') && !COMMON_SUFFIX.test(t.normal)
}

/** Endings of English common nouns: a sentence's first word with one is a word, not a name ("Development"). */
export const COMMON_SUFFIX = /(ment|tion|sion|ness|ity|ance|ence|ing|ism|ship|ure|ies|ers|ology|able|ible)$/

/** A capitalised function word inside a run ("ANSI C. After that") ends the name. */
const FUNCTION_WORDS = new Set([
  'after',
  'before',
  'when',
  'while',
  'since',
  'although',
  'because',
  'if',
  'then',
  'thus',
  'however',
  'therefore',
  'also',
  'in',
  'on',
  'at',
  'for',
  'with',
  'from',
  'by',
  'as',
  'to',
  'and',
  'or',
  'but',
  'so',
  'yet',
  'not',
  'no',
  'yes',
  'once',
  'until',
  'unless',
  'during',
  'without',
  'within',
  'about',
  'into',
  'here',
  'there',
  'now',
  'today',
])

export function functionWord(t: Term): boolean {
  if (FUNCTION_WORDS.has(t.normal)) return true
  const tag = knownTag(t.normal)
  return /Preposition|Conjunction|Determiner|Pronoun|Adverb|QuestionWord/.test(tag) || has(t, 'Preposition', 'Conjunction', 'Determiner', 'Pronoun')
}
