/**
 * A sentence's verb groups: the auxiliaries, modal, negation and adverbs around one main verb
 * ("can prevent", "had not been", "was founded"), with what they say about the claim: its lemma,
 * modality, negation, passive voice and a state said in the past.
 */
import { pluralAfterPreposition, verbish } from './literal-object.js'
import { has, type Sentence, type Term } from './sentence-terms.js'

export interface VerbGroup {
  start: number
  end: number
  main: Term
  lemma: string
  negated: boolean
  /** "hardly supports", "rarely ships": the text does not say it holds, nor that it does not. */
  hedged: boolean
  passive: boolean
  /** "can", "must", "may", ... as written, or "used to": a claim keeps its modality ("can prevent"). */
  modal?: string
  /** A state said in the past ("was", "had"): kept on a literal claim ("Qt was not free software"). */
  past: boolean
}

const MODALS = new Set(['can', 'cannot', 'could', 'may', 'might', 'must', 'shall', 'should', 'will', 'would'])
/** "is released under": compromise reads the participle as an adjective; before a preposition it is the verb. */
const participleAfterBe = (s: Sentence, k: number) =>
  k > 0 &&
  (BE.has(s[k - 1].normal) || has(s[k - 1], 'Negative')) &&
  has(s[k], 'Adjective') &&
  /ed$/.test(s[k].normal) &&
  (has(s[k + 1], 'Preposition') || PARTICLES.has(s[k + 1]?.normal ?? ''))
const mainVerb = (t: Term) => has(t, 'Verb') && !has(t, 'Auxiliary', 'Copula', 'Modal', 'Negative') && !MODALS.has(t.normal)

const BE = new Set(['be', 'is', 'are', 'was', 'were', 'been', 'being', 'am', "'s"])
const HAVE = new Set(['have', 'has', 'had', 'having'])
/** "had been": compromise does not always tag the auxiliary as past. */
const PAST_FORMS = new Set(['was', 'were', 'had'])
export const CLAUSE_BREAK = new Set([
  'which',
  'who',
  'whom',
  'whose',
  'that',
  'where',
  'while',
  'although',
  'because',
  'whereas',
  'if',
  'when',
  'so',
  'but',
  'since',
])
export const LIST_GLUE = /^(,|,?\s*and|,?\s*or)$/
/** Past participles compromise does not always tag as such ("was born"). */
const PARTICIPLE = /(ed|en|wn|rn|ne|lt|pt|ught|ung)$/
export const PARTICLES = new Set(['to', 'into', 'onto', 'from', 'with', 'for', 'in', 'on', 'at', 'by', 'as', 'after', 'of', 'within', 'under', 'over'])

const lemmaOf = (t: Term) => (BE.has(t.normal) || BE.has(t.root) ? 'be' : HAVE.has(t.normal) ? 'have' : t.root.replace(/[^\p{L}'-]/gu, '') || t.normal)

const HEDGES = new Set(['hardly', 'rarely', 'seldom', 'barely', 'scarcely'])
const pair = (a: Term | undefined, b: Term | undefined) => `${a?.normal ?? ''} ${b?.normal ?? ''}`
/** "no longer supports", "is no longer a ...": a state that ended, said in the negative. */
const noLonger = (s: Sentence, start: number, end: number) =>
  [pair(s[start - 2], s[start - 1]), pair(s[end], s[end + 1])].some((p) => p === 'no longer' || p === 'no more' || p === 'any longer')

export function verbGroups(s: Sentence, taken: Uint8Array): VerbGroup[] {
  const groups: VerbGroup[] = []
  let i = 0
  while (i < s.length) {
    const adjunct = groups.at(-1)?.end === i && mainVerb(s[i - 1]) && has(s[i], 'Infinitive') && has(s[i + 1], 'Noun') && !has(s[i + 1], 'Verb', 'Pronoun')
    if (taken[i] || !verbish(s[i]) || s[i - 1]?.normal === 'to' || adjunct || pluralAfterPreposition(s[i - 1], s[i])) {
      i++
      continue
    }
    let end = i + 1
    const continues = (k: number): boolean =>
      verbish(s[k]) || has(s[k], 'Negative') || (has(s[k], 'Adverb') && k + 1 < s.length && !taken[k + 1] && continues(k + 1)) || participleAfterBe(s, k)
    // The group ends at its main verb: "can prevent overwrite accidents" is "can prevent" and its object.
    while (end < s.length && !taken[end] && !mainVerb(s[end - 1]) && continues(end)) end++
    while (i > 0 && !taken[i - 1] && DISCOURSE.has(s[i - 1].normal) && !/[,;:]/.test(s[i - 1].post)) i--
    // "Debian releases is": a verb before an auxiliary or copula of the same group is a noun.
    for (let k = end - 1; k > i; k--) {
      if (has(s[k], 'Auxiliary', 'Copula', 'Modal') && s.slice(i, k).some((t) => has(t, 'Verb') && !has(t, 'Auxiliary', 'Copula', 'Modal'))) {
        i = k
        break
      }
    }
    const terms = s.slice(i, end)
    const main =
      terms.find((_, k) => participleAfterBe(s, i + k)) ??
      [...terms].reverse().find((t) => has(t, 'Verb') && !has(t, 'Auxiliary', 'Copula', 'Modal', 'Negative')) ??
      terms.find((t) => !has(t, 'Negative', 'Adverb')) ??
      s[i]
    const beAux = terms.some((t) => t !== main && (BE.has(t.normal) || BE.has(t.root)))
    // "used to ship" (a habit that held in the past) and "is used to write" (what a thing serves for) are kept like a modal.
    const used = terms.findIndex((t, k) => t.normal === 'used' && terms[k + 1]?.normal === 'to' && terms[k + 1] !== main)
    const usedAs = used < 0 ? undefined : terms.slice(0, used).some((t) => BE.has(t.normal)) ? 'be used to' : 'used to'
    const modal = [terms.find((t) => MODALS.has(t.normal))?.normal.replace(/^cannot$/, 'can'), usedAs].filter(Boolean).join(' ') || undefined
    const tensed = terms.find((t) => verbish(t) && !has(t, 'Negative'))
    groups.push({
      start: i,
      end,
      main,
      lemma: lemmaOf(main),
      modal,
      past: !modal && tensed !== undefined && (has(tensed, 'PastTense') || PAST_FORMS.has(tensed.normal)) && (BE.has(tensed.normal) || HAVE.has(tensed.normal)),
      negated: terms.some((t) => has(t, 'Negative') || t.normal === 'not' || t.normal === "n't" || t.normal === 'cannot') || noLonger(s, i, end),
      hedged: [s[i - 1], ...terms, s[end]].some((t) => t !== undefined && HEDGES.has(t.normal)),
      passive: beAux && (has(main, 'PastTense', 'Participle', 'Passive') || PARTICIPLE.test(main.normal)) && lemmaOf(main) !== 'be',
    })
    i = end
  }
  return groups
}

/** Words between a subject and its verb that do not change who does what. */
export const DISCOURSE = new Set([
  'therefore',
  'thus',
  'also',
  'then',
  'now',
  'still',
  'however',
  'hence',
  'later',
  'first',
  'finally',
  'successively',
  'usually',
  'often',
  'eventually',
  'always',
  'never',
])

/** Words that open a noun phrase right after a verb ("describes the structure"). */
const OBJECT_OPENERS = new Set(['the', 'a', 'an', 'its', 'their', 'his', 'her', 'many', 'several', 'all', 'some', 'no', 'each', 'every'])

/**
 * "The Policy Manual describes the structure": a lower-case word in -s that compromise reads as
 * a plural noun, right after a name and right before a determiner, is the name's verb (a noun
 * would not stand between a name and a determiner). The sentence with those words read as verbs.
 */
export function withVerbsAfterNames(s: Sentence, taken: Uint8Array): Sentence {
  return s.map((t, i) => {
    const verb =
      i > 0 &&
      taken[i - 1] &&
      !taken[i] &&
      !/[,;:()]/.test(s[i - 1].post) &&
      has(t, 'Plural') &&
      !has(t, 'Verb', 'ProperNoun', 'Pronoun') &&
      /^\p{Ll}/u.test(t.text) &&
      /[^s']s$/.test(t.normal) &&
      OBJECT_OPENERS.has(s[i + 1]?.normal ?? '')
    return verb ? { ...t, tags: new Set([...[...t.tags].filter((g) => g !== 'Noun' && g !== 'Plural'), 'Verb', 'PresentTense']) } : t
  })
}
