/**
 * A claim as a sentence an operator reads: the predicate's lemma ("be", "work with", "not
 * support") conjugated for a third-person subject ("is", "works with", "does not support"), a
 * passive or a birth in the past ("was elected", "was born in"), a modal kept ("can prevent",
 * "must not include") and a state the text put in the past ("was not", "had"). Claims are stored as lemmas so
 * that one fact said in two tenses is one claim; this is only how they are shown.
 */
const IRREGULAR: Record<string, string> = { be: 'is', have: 'has', do: 'does', go: 'goes' }

function thirdPerson(verb: string): string {
  if (IRREGULAR[verb]) return IRREGULAR[verb]
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`
  return `${verb}s`
}

/** "be elected", "be born in", "be based on": past participles after "be" read in the past. */
const PARTICIPLE = /^(born|\w+ed|\w+en|made|built|held|led|sold|told|won|written|known|given|taken|chosen|run)$/

const MODALS = new Set(['can', 'could', 'may', 'might', 'must', 'shall', 'should', 'will', 'would'])

export function verbPhrase(predicate: string): string {
  const words = predicate.trim().split(/\s+/)
  const negated = words[0] === 'not'
  const [verb, ...rest] = negated ? words.slice(1) : words
  if (!verb) return predicate
  // Modality and a past state are kept as the extractor stored them: "can prevent", "not must include", "not was".
  if (MODALS.has(verb) && rest.length > 0) return negated ? `${verb === 'can' ? 'cannot' : `${verb} not`} ${rest.join(' ')}` : `${verb} ${rest.join(' ')}`
  if (verb === 'was') return ['was', ...(negated ? ['not'] : []), ...rest].join(' ')
  if (verb === 'had') return negated ? ['did not have', ...rest].join(' ') : ['had', ...rest].join(' ')
  if (verb === 'be') {
    const past = rest[0] !== undefined && PARTICIPLE.test(rest[0])
    return [past ? 'was' : 'is', ...(negated ? ['not'] : []), ...rest].join(' ')
  }
  if (negated) return ['does not', verb, ...rest].join(' ')
  return [thirdPerson(verb), ...rest].join(' ')
}

export function claimSentence(subject: string, predicate: string, object: string): string {
  const text = `${subject} ${verbPhrase(predicate)} ${object}`.replace(/\s+/g, ' ').trim()
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`
}
