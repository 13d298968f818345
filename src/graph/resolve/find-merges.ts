/**
 * Every reason the resolver has to make two entities of a scope set one, as pairs with the rule
 * that found them: the same normalized name (any kind); trigram-similar names of one kind whose
 * words agree in order (name-compatibility.ts); the rules of name-rules.ts (acronyms,
 * designators, partial names); two-letter acronyms a text of the set defines
 * (acronym-definitions.ts); and, when an embedder is given, embeddings (embedding-matches.ts).
 */
import { twoLetterAcronyms } from './acronym-definitions.js'
import { embeddingCandidates, embeddingMatches } from './embedding-matches.js'
import { type NamedEntity, type NamePair, ruleMatches } from './match-names.js'
import { compatibleNames } from './name-compatibility.js'
import { type NameTrigrams, similarNamePairs } from './similar-names.js'

export type MergeRule = NamePair['rule'] | 'same-name' | 'similar-name'

export interface MergePair {
  a: string
  b: string
  rule: MergeRule
  score: number
}

export interface FindMergesOptions {
  /** Trigram Jaccard above which compatible names merge; 1 turns the trigram rule off. */
  similarity: number
  /** pg_trgm's last word on the trigram pairs PPJoin found (dedup-sql's confirmSimilar). */
  confirm?: (pairs: [string, string][]) => Promise<[string, string][]>
  /** The pairs [acronym id, expansion id] among `pairs` that a text of the set defines ("Free Software (FS)"); without it two-letter acronyms never merge. */
  definitions?: (pairs: [string, string][]) => Promise<[string, string][]>
  embed?: (texts: string[]) => Promise<number[][]>
  embeddingSimilarity?: number
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`)

export async function findMerges(entities: readonly (NamedEntity & NameTrigrams)[], opts: FindMergesOptions): Promise<MergePair[]> {
  const out: MergePair[] = []
  const byName = new Map<string, string>()
  for (const e of entities) {
    const first = byName.get(e.name)
    if (first) out.push({ a: e.id, b: first, rule: 'same-name', score: 1 })
    else byName.set(e.name, e.id)
  }
  const nameOf = new Map(entities.map((e) => [e.id, e.name]))
  if (opts.similarity < 1) {
    let found = await similarNamePairs(entities, opts.similarity)
    if (opts.confirm) found = await opts.confirm(found)
    for (const [a, b] of found) if (compatibleNames(nameOf.get(a) ?? '', nameOf.get(b) ?? '')) out.push({ a, b, rule: 'similar-name', score: opts.similarity })
  }
  out.push(...ruleMatches(entities))
  const twoLetters = twoLetterAcronyms(entities)
  if (opts.definitions && twoLetters.length > 0) for (const [a, b] of await opts.definitions(twoLetters)) out.push({ a, b, rule: 'acronym', score: 1 })
  if (opts.embed) {
    const matched = new Set(out.map((p) => pairKey(p.a, p.b)))
    out.push(...(await embeddingMatches(embeddingCandidates(entities, matched), opts.embed, opts.embeddingSimilarity ?? 0.92)))
  }
  return out
}
