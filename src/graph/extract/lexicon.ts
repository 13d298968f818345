/**
 * compromise, loaded on first use: `import 'aizk'` must not pay for the NLP library
 * (test/unit/library-entry.test.ts), yet resolution and recall's floor ask it about single words.
 */
import { createRequire } from 'node:module'
import type nlpType from 'compromise'

type Nlp = typeof nlpType
let loaded: Nlp | undefined
let words: Record<string, string | string[] | undefined> | undefined

export function lazyNlp(): Nlp {
  loaded ??= createRequire(import.meta.url)('compromise') as Nlp
  return loaded
}

function lexicon(): Record<string, string | string[] | undefined> {
  words ??= (lazyNlp().model() as { one: { lexicon: Record<string, string | string[] | undefined> } }).one.lexicon
  return words
}

/** Whether compromise's lexicon knows the word: an English word rather than a name. */
export function knownWord(normal: string): boolean {
  return lexicon()[normal] !== undefined
}

/** The lexicon's tag for a word, '' when it has none. */
export function knownTag(normal: string): string {
  const tag = lexicon()[normal]
  return Array.isArray(tag) ? tag.join(',') : (tag ?? '')
}
