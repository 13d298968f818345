/**
 * A description set off by commas right after a name: "Lintian, a static analysis tool, checks
 * packages" says Lintian is a static analysis tool. Only a noun phrase opened by "a", "an" or
 * "the", taken whole up to its closing comma (then the name's own verb follows) or the sentence's
 * end, with no verb in it; not an item of a list ("Debian, the kernel, and the tools").
 */
import { literalAfter, verbish } from './literal-object.js'
import type { NameAt } from './sentence-relations.js'
import { has, type Sentence } from './sentence-terms.js'

const OPENERS = new Set(['a', 'an', 'the'])

export function appositionOf(s: Sentence, n: NameAt, names: readonly NameAt[]): string | undefined {
  if (!/^,\s*$/.test(s[n.end - 1].post) || !OPENERS.has(s[n.end]?.normal ?? '')) return undefined
  let end = n.end
  while (end < s.length && !/[,;:()]/.test(s[end].post)) end++
  if (end === s.length) end--
  const span = s.slice(n.end, end + 1)
  if (span.some((t) => verbish(t) || has(t, 'Conjunction', 'Pronoun')) || names.some((m) => m.start >= n.end && m.start <= end)) return undefined
  const closesSentence = end === s.length - 1 && !/[,;:(]/.test(s[end].post)
  const verbFollows = /^,\s*$/.test(s[end].post) && verbish(s[end + 1]) && !has(s[end + 1], 'Conjunction')
  if (!closesSentence && !verbFollows) return undefined
  const literal = literalAfter(s, n.end, end + 1)
  // Whole or nothing: the phrase must be the apposition's every word after its determiner.
  return literal && literal.split(/\s+/).length === span.length - 1 ? literal : undefined
}
