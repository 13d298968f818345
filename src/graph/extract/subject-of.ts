/**
 * The subject of a verb group: the name that stands before it, next to it or with only adverbs,
 * a parenthetical or an apposition between ("Salsa, the GitLab instance of Debian, hosts"), and
 * not the object of a preposition or a verb ("on LTS").
 */
import { verbish } from './literal-object.js'
import type { NameAt } from './sentence-relations.js'
import { has, type Sentence } from './sentence-terms.js'
import { DISCOURSE, PARTICLES } from './verb-groups.js'

/** Terms between two positions are only adverbs, a parenthetical, or an apposition set off by commas. */
function adjacent(s: Sentence, from: number, to: number): boolean {
  if (from === to) return true
  const between = s.slice(from, to)
  if (between.every((t) => has(t, 'Adverb') || DISCOURSE.has(t.normal))) return true
  const opened = /\(\s*$/.test(s[from - 1]?.post ?? '') || /\(/.test(between[0].pre)
  if (opened && /\)/.test(between.at(-1)?.post ?? '')) return true
  if (!/^,/.test(s[from - 1]?.post ?? '')) return false
  // "Lintian, which checks packages": the relative pronoun stands for the name before it.
  if (between.length === 1 && NONRESTRICTIVE.has(between[0].normal)) return true
  if (!/,\s*$/.test(between.at(-1)?.post ?? '')) return false
  // "Lintian, which checks packages, is a tool": a relative clause set off by commas is skipped.
  if (NONRESTRICTIVE.has(between[0].normal) && !between.slice(0, -1).some((t) => /[,;:()]/.test(t.post))) return true
  return !between.some(verbish)
}

const NONRESTRICTIVE = new Set(['which', 'who'])
/** Head nouns after a name that name the same thing ("the Debian project", "the Python language"). */
const NAME_HEADS = new Set(['project', 'language', 'distribution', 'interpreter'])
/** Words that open a clause that is a condition, not a fact ("If Debian is installed, ..."), or deny its subject ("Neither Debian nor Ubuntu ships"). */
const CONDITIONS = new Set(['if', 'unless', 'whether', 'suppose', 'supposing', 'assuming', 'provided', 'neither', 'nor'])

/** A condition word opens the clause the name stands in. */
function conditional(s: Sentence, start: number): boolean {
  for (let k = start - 1; k >= 0 && !/[,;:]/.test(s[k].post); k--) if (CONDITIONS.has(s[k].normal)) return true
  return false
}

/** "The POSTGRES project was led by ...": the name with a head noun that names what it is; not "a Debian distribution", any one of them. */
function withHeadNoun(s: Sentence, n: NameAt, verbAt: number): boolean {
  const head = s[n.end]
  return verbAt === n.end + 1 && NAME_HEADS.has(head.normal) && !/[,;:()]/.test(s[n.end - 1].post) && !GENERIC.has(s[n.start - 1]?.normal ?? '')
}

const GENERIC = new Set(['a', 'an', 'any', 'each', 'every', 'no', 'one'])

/**
 * The name that is the subject of the verb group starting at `verbAt`: the last one before it
 * and next to it, skipping a name that is an object ("Salsa, the GitLab instance of Debian,
 * hosts": not Debian) or a gloss in parentheses. None in a clause that states a condition.
 */
export function subjectOf(s: Sentence, names: readonly NameAt[], verbAt: number): NameAt | undefined {
  for (let k = names.length - 1; k >= 0; k--) {
    const n = names[k]
    if (n.end > verbAt || !(adjacent(s, n.end, verbAt) || withHeadNoun(s, n, verbAt)) || governed(s, n.start) || parenthetical(s, n)) continue
    return conditional(s, n.start) ? undefined : n
  }
  return undefined
}

/** A name in parentheses ("rex (Debian 1.2) was ...") glosses the word before it; it is not the subject. */
function parenthetical(s: Sentence, n: NameAt): boolean {
  return /\(\s*$/.test(s[n.start - 1]?.post ?? '') || /\(/.test(s[n.start].pre) ? /\)/.test(s[n.end - 1].post) : false
}

/** A name right after a preposition or a verb is its object ("on LTS", "link Python programs"), not a subject. */
function governed(s: Sentence, start: number): boolean {
  let k = start - 1
  while (k >= 0 && has(s[k], 'Determiner', 'Adjective') && !/[,;:]/.test(s[k].post)) k--
  if (k < 0 || /[,;:()]/.test(s[k].post) || SUBORDINATORS.has(s[k].normal)) return false
  // "to whom Debian is indebted": the clause is about someone else.
  if (RELATIVES.has(s[k].normal)) return true
  return has(s[k], 'Preposition', 'Gerund') || PARTICLES.has(s[k].normal) || (verbish(s[k]) && !has(s[k], 'Auxiliary', 'Copula', 'Modal'))
}

const RELATIVES = new Set(['whom', 'whose', 'which'])

const SUBORDINATORS = new Set(['since', 'as', 'while', 'after', 'before', 'until', 'unless', 'because', 'although', 'though', 'once', 'when'])
