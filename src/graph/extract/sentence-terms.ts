/**
 * Sentences as the built-in extractor reads them: compromise's terms with their tags, their
 * root (the inflection-free form) and the punctuation around them. One compromise pass per
 * prose block.
 */
import nlp from 'compromise'

export interface Term {
  text: string
  /** Lower case, no punctuation. */
  normal: string
  /** The verb's infinitive or the noun's singular when compromise knows one, else `normal`. */
  root: string
  pre: string
  post: string
  tags: ReadonlySet<string>
}

export type Sentence = Term[]

interface JsonTerm {
  text: string
  normal?: string
  root?: string
  pre: string
  post: string
  tags: string[]
}

export { knownTag, knownWord } from './lexicon.js'

export function sentencesOf(block: string): Sentence[] {
  const doc = nlp(block)
  doc.compute('root')
  return (doc.json() as { terms: JsonTerm[] }[]).map((s) =>
    s.terms.map((t) => {
      const normal = (t.normal ?? t.text.toLowerCase()).replace(/[^\p{L}\p{N}'’.+/-]/gu, '')
      return { text: t.text, normal, root: t.root || normal, pre: t.pre ?? '', post: t.post ?? '', tags: new Set(t.tags) }
    }),
  )
}

export const has = (t: Term | undefined, ...tags: string[]) => t !== undefined && tags.some((tag) => t.tags.has(tag))
