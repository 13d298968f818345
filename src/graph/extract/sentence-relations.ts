/**
 * Claims read off one sentence, between the names it mentions where it can: the verb that links
 * a subject name to the names after it ("Guido van Rossum moved to BeOpen.com": move to), passive
 * voice turned active ("Debian was founded by Ian Murdock": Ian Murdock found Debian), negation
 * kept ("not be"), a list of objects giving one claim each, a place after "in", an apposition
 * ("Red Hat, Inc., child company of IBM": be company of), and the sentence's date on every claim
 * it gives. A claim is made only when its subject is a name (or "the project" for a name the chunk
 * gave; subject-of.ts); the object is a name, or else the noun phrase after the verb as literal text.
 * A question, a condition ("If Debian is installed, ...") and a verb that ends its clause give none.
 */
import { appositionOf } from './apposition.js'
import { literalAfter, verbish } from './literal-object.js'
import { has, type Sentence } from './sentence-terms.js'
import { subjectOf } from './subject-of.js'
import { CLAUSE_BREAK, LIST_GLUE, PARTICLES, type VerbGroup, verbGroups, withVerbsAfterNames } from './verb-groups.js'

export interface NameAt {
  start: number
  end: number
  key: string
  kind: string
}

export interface SentenceClaim {
  subject: string
  /** Where the subject stands in the sentence (its first term). */
  subjectAt: number
  predicate: string
  object: string
  objectIsEntity: boolean
  when?: string
}

/** The sentence's date: a year, a decade, or a month with its year ("May 2000", "April of 2007"). */
export function dateOf(s: Sentence): string | undefined {
  for (let i = 0; i < s.length; i++) {
    if (!/^(1[89]|20)\d\d(s)?$/.test(s[i].normal)) continue
    if (has(s[i - 1], 'Month')) return `${s[i - 1].text} ${s[i].text}`
    if (s[i - 1]?.normal === 'of' && has(s[i - 2], 'Month')) return `${s[i - 2].text} ${s[i].text}`
    return s[i].text
  }
  return undefined
}

/** Names from `at` on that form a list ("A, B, and C"), each right after the previous. */
function listFrom(s: Sentence, names: readonly NameAt[], first: NameAt): NameAt[] {
  const list = [first]
  for (let k = names.indexOf(first) + 1; k < names.length; k++) {
    const prev = list.at(-1) as NameAt
    const glue = `${s[prev.end - 1].post.trim()} ${s
      .slice(prev.end, names[k].start)
      .map((t) => t.text + t.post.trim())
      .join(' ')}`.trim()
    if (!LIST_GLUE.test(glue)) break
    list.push(names[k])
  }
  return list
}

export function sentenceClaims(read: Sentence, names: readonly NameAt[]): SentenceClaim[] {
  const taken = new Uint8Array(read.length)
  for (const n of names) taken.fill(1, n.start, n.end)
  const s = withVerbsAfterNames(read, taken)
  const when = dateOf(s)
  const claims: SentenceClaim[] = []
  const add = (subject: NameAt, predicate: string, object: string, objectIsEntity: boolean) => {
    if (subject.key !== object) claims.push({ subject: subject.key, subjectAt: subject.start, predicate, object, objectIsEntity, ...(when ? { when } : {}) })
  }
  // A question asks; it states nothing.
  if (/\?/.test(s.at(-1)?.post ?? '')) return []
  const groups = verbGroups(s, taken)
  const clauseEnd = (from: number) => {
    for (let k = from; k < s.length; k++) {
      if (groups.some((g) => g.start === k) || CLAUSE_BREAK.has(s[k].normal)) return k
      if (/[;:]/.test(s[k].post)) return k + 1
    }
    return s.length
  }
  for (const g of groups) {
    // A verb group that is a particle alone ("over" from "had taken over") lost its verb.
    if (PARTICLES.has(g.lemma) || g.hedged) continue
    const subject = subjectOf(s, names, g.start)
    if (!subject) continue
    const end = clauseEnd(g.end)
    const inSpan = names.filter((n) => n.start >= g.end && n.end <= end)
    const reducedPassive = !g.passive && has(g.main, 'PastTense') && g.end - g.start === 1 && /,\s*$/.test(s[g.start - 1]?.post ?? '')
    const by = s.findIndex((t, k) => k >= g.end && k < end && t.normal === 'by')
    if ((g.passive || reducedPassive) && by >= 0) {
      const agent = inSpan.find((n) => n.start > by && adjacentWords(s, by + 1, n.start))
      if (agent) for (const a of listFrom(s, names, agent)) add(a, negate(g, g.lemma), subject.key, true)
      continue
    }
    // "If Debian is installed, Python ...": a verb that ends its clause has no object after it.
    if (reducedPassive || /[,;:]/.test(s[g.end - 1].post)) continue
    const prep = s[g.end] && (has(s[g.end], 'Preposition') || PARTICLES.has(s[g.end].normal)) && !taken[g.end] ? s[g.end].normal : ''
    const head = withModal(g, g.passive ? `be ${g.main.normal}` : g.lemma)
    const predicate = negate(g, prep ? `${head} ${prep}` : head)
    const objectStart = prep ? g.end + 1 : g.end
    const object = inSpan.find((n) => adjacentWords(s, objectStart, n.start) && !modifies(s, n))
    if (object) {
      for (const o of listFrom(s, names, object)) add(subject, predicate, o.key, true)
      continue
    }
    const of = ofRelation(s, objectStart, end, names)
    if (of && g.lemma === 'be') {
      add(subject, negate(g, `be ${of.noun} ${of.prep}`), of.name.key, true)
      continue
    }
    const literal = literalAfter(s, objectStart, end)
    if (literal) add(subject, g.past && !g.passive && (g.lemma === 'be' || g.lemma === 'have') ? negate(g, pastOf(g.lemma, prep)) : predicate, literal, false)
  }
  verblessRelations(s, names, add)
  for (const n of names) {
    const description = appositionOf(s, n, names)
    if (description) add(n, 'be', description, false)
  }
  return claims
}

/** A name followed by a common noun modifies it ("a GNU/Linux distribution", "Python's principal author"). */
function modifies(s: Sentence, n: NameAt): boolean {
  const next = s[n.end]
  return (
    next !== undefined &&
    !/[,;:()]/.test(s[n.end - 1].post) &&
    has(next, 'Noun', 'Adjective') &&
    !has(next, 'ProperNoun', 'Pronoun', 'Preposition') &&
    !verbish(next) &&
    /^\p{Ll}/u.test(next.text)
  )
}

const negate = (g: VerbGroup, predicate: string) => (g.negated ? `not ${predicate}` : predicate)
const withModal = (g: VerbGroup, head: string) => (g.modal ? `${g.modal} ${head}` : head)
/** "was" and "had" stand for their lemma in a claim that says a state held then ("Qt was not free software at the time"). */
const pastOf = (lemma: string, prep: string) => `${lemma === 'be' ? 'was' : 'had'}${prep ? ` ${prep}` : ''}`

/** Only determiners and adjectives (at most three terms) stand between `from` and `to`. */
function adjacentWords(s: Sentence, from: number, to: number): boolean {
  if (to - from > 3) return false
  return s.slice(from, to).every((t) => has(t, 'Determiner', 'Adjective', 'Possessive') && !verbish(t) && !PARTICLES.has(t.normal) && !/ed$/.test(t.normal))
}

/** "a sponsoring member of the PSF": the noun before "of" (or "for") and the name after it. */
function ofRelation(s: Sentence, from: number, to: number, names: readonly NameAt[]): { noun: string; prep: string; name: NameAt } | undefined {
  for (let k = from; k < Math.min(to, from + 6); k++) {
    if (s[k].normal !== 'of' && s[k].normal !== 'for') {
      if (verbish(s[k]) || (k > from && /[,;:]/.test(s[k - 1].post))) return undefined
      continue
    }
    const name = names.find((n) => n.start > k && adjacentWords(s, k + 1, n.start))
    const noun = s[k - 1]
    if (!name || !noun || !has(noun, 'Noun') || k === from) return undefined
    return { noun: noun.root || noun.normal, prep: s[k].normal, name }
  }
  return undefined
}

/** Relations with no verb: "X in the Netherlands", "Reston, Virginia", "Red Hat, Inc., child company of IBM". */
function verblessRelations(s: Sentence, names: readonly NameAt[], add: (s: NameAt, p: string, o: string, e: boolean) => void): void {
  names.forEach((a, i) => {
    let next = names[i + 1]
    let after = a.end
    // Skip an alias in parentheses right after the name: "Corporation for ... (CNRI) in Reston".
    if (next && next.start === a.end && /\(/.test(s[next.start].pre + (s[a.end - 1]?.post ?? ''))) {
      after = next.end
      next = names[i + 2]
    }
    if (!next) return
    const glue = s[after]?.normal
    if (next.kind === 'place' && glue === 'in' && adjacentWords(s, after + 1, next.start) && !/[,;]/.test(s[after - 1].post)) add(a, 'in', next.key, true)
    else if (a.kind === 'place' && next.kind === 'place' && next.start === after && /^,\s*$/.test(s[after - 1].post)) add(a, 'in', next.key, true)
    else if (/^,\s*$/.test(s[after - 1].post)) {
      const of = ofRelation(s, after, Math.min(s.length, after + 6), names)
      if (of && of.name.start > after && s.slice(after, of.name.start).every((t) => !verbish(t))) add(a, `be ${of.noun} ${of.prep}`, of.name.key, true)
    }
  })
}
