/**
 * What kind of answer a question asks for, and whether a text holds one (docs/memory-graph.md,
 * "Recall that knows when it doesn't know"): who asks for a name, when for a date, how many for a
 * number, what is X for a sentence saying what something is. A text holding the question's words
 * but no answer of its kind is a weaker answer. Surface patterns only, no model.
 */
export type AnswerType = 'name' | 'date' | 'number' | 'definition'

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december'
const NUMBER_WORDS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|million|billion|dozen|several|many|few'

const ASKS: [RegExp, AnswerType][] = [
  [/^\s*(who|whom|whose)\b/i, 'name'],
  [/^\s*(when|what year|which year|in what year|in which year|what date|since when)\b/i, 'date'],
  [/^\s*(how (many|much|long|old|big|large|often|far))\b/i, 'number'],
  [/^\s*(what|which) (version|number|port|size|percentage)\b/i, 'number'],
  [/^\s*what (is|are|was|were|does) (an? |the )?[\p{L}\p{N}]/iu, 'definition'],
]

/** The kind of answer the question asks for; null when its form does not say. */
export function answerTypeOf(question: string): AnswerType | null {
  for (const [pattern, type] of ASKS) if (pattern.test(question)) return type
  return null
}

const DATE = new RegExp(`\\b(1[0-9]{3}|20[0-9]{2})s?\\b|\\b(${MONTHS})\\b`, 'i')
const NUMBER = new RegExp(`\\d|\\b(${NUMBER_WORDS})\\b`, 'i')
const DEFINITION = /\b(is|are|was|were)\s+(an?|the|one of)\b|\brefers? to\b|\bmeans\b|\bstands for\b|\bknown as\b|,\s+an?\s/i

/** A capitalized word not opening a sentence and not one of the question's words: a name. */
function holdsName(text: string, questionWords: Set<string>): boolean {
  for (const m of text.matchAll(/(?<![.!?:]\s|^)(?<=\s|\()([A-Z][\p{L}\p{N}'’-]+)/gu)) {
    if (!questionWords.has(m[1].toLowerCase())) return true
  }
  return false
}

/** Whether the text holds an answer of the type asked for. */
export function holdsAnswerType(text: string, type: AnswerType, question: string): boolean {
  if (type === 'date') return DATE.test(text)
  if (type === 'number') return NUMBER.test(text)
  if (type === 'definition') return DEFINITION.test(text)
  const words = new Set(question.toLowerCase().split(/[^\p{L}\p{N}'’-]+/u))
  return holdsName(text, words)
}
