/**
 * What an entity is, from its description sentence (entity.description: the first sentence the
 * text gave that says what it is, else the first that names it), for a profile with no claim to
 * lead with (docs/memory-graph.md, "Readable output"). The sentence's own tense and polarity are
 * kept: "Qt was not free software at the time." stays in the past and negative.
 *   - "X is a ...", "X was not ...", "X has been ...": the clause from the name on;
 *   - an apposition, "X, a Debian developer, ...": "X is a Debian developer.";
 *   - otherwise the sentence itself, quoted, as where the text names it.
 */
const COPULA = /^(is|was|are|were|has been|had been|will be|remains|remained|became|becomes)\s+/i
const APPOSITION = /^,\s+((?:a|an|the|one of the)\s+[^,;.()]{3,120}?)\s*[,;.)]/i
const MAX = 300

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function sentence(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim()
  const clipped = t.length > MAX ? `${t.slice(0, MAX - 1).replace(/\s+\S*$/, '')}…` : t
  return /[.!?…"”]$/.test(clipped) ? clipped : `${clipped}.`
}

/** `quoted` when the sentence only names it (given as the text wrote it). */
export function whatItIs(name: string, description: string | null | undefined): { text: string; quoted: boolean } | undefined {
  const text = description?.replace(/\s+/g, ' ').trim()
  if (!text) return undefined
  const at = text.search(new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'iu'))
  if (at >= 0) {
    const start = text.toLowerCase().indexOf(name.toLowerCase(), at)
    const after = text.slice(start + name.length)
    const rest = after.replace(/^\s+/, '')
    if (COPULA.test(rest)) {
      // The clause up to the sentence's end, or a semicolon.
      const clause = rest.split(/;\s|\.\s+(?=\p{Lu})/u)[0]
      return { text: sentence(`${name} ${clause}`), quoted: false }
    }
    const appositive = after.match(APPOSITION)
    if (appositive) return { text: sentence(`${name} is ${appositive[1].trim()}`), quoted: false }
  }
  return { text: `“${sentence(text)}”`, quoted: true }
}
