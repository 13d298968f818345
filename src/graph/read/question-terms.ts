/**
 * The question's words as recall's floor counts them (docs/memory-graph.md, "Recall that knows when
 * it doesn't know"): one group per word, a verb with every form it takes ("wrote" holds write,
 * writes, writing, written), so a text that says "was written by" answers "who wrote". The text
 * search stemmer joins regular forms, not irregular ones.
 */
import { lazyNlp } from '../extract/lexicon.js'

/** Each word of the question with its other forms (a verb's), the word itself first. */
export function questionWordForms(question: string): string[][] {
  const nlp = lazyNlp()
  const terms = nlp(question).terms().json() as { text: string; terms: { tags: string[] }[] }[]
  return terms.map((t) => {
    const word = t.text.replace(/[^\p{L}\p{N}'’./+#-]+$/u, '')
    if (!t.terms[0]?.tags.includes('Verb')) return [word]
    const forms = (nlp(word).verbs().conjugate() as Record<string, string>[])[0] ?? {}
    return [word, ...['Infinitive', 'PastTense', 'PresentTense', 'Gerund', 'Participle'].flatMap((k) => (forms[k] ? [forms[k]] : []))]
  })
}
