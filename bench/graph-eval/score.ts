/**
 * Scoring one extractor's output against the labels (the matching rules are in
 * docs/memory-graph.md, "The evaluation"). Pure functions, no database.
 */
import type { CleanExtraction } from '../../src/graph/extract/extraction.js'
import { normalizeName } from '../../src/graph/extract/normalize.js'
import { clusterLevels, type WeightedEdge } from '../../src/graph/maintain/communities/cluster-levels.js'
import { isSingleValuedForObject, isSingleValuedPredicate, timelineOf } from '../../src/graph/maintain/insights/single-valued.js'
import { type FunctionalLabel, type LabeledClaim, type LabeledEntity, type LabeledSet, nameIndex, type Passage, referenceIndex } from './labels.js'
import { isInformative, type ScoredClaim } from './quality.js'

export type { ScoredClaim } from './quality.js'

export interface Counts {
  entitiesOut: number
  entitiesRight: number
  entitiesLabeled: number
  entitiesFound: number
  claimsOut: number
  claimsRight: number
  claimsLabeled: number
  claimsFound: number
  claimsLinking: number
  datedLabeled: number
  datedKept: number
  /** Matched entities (first match of a wanted label), and those given the labeled kind. */
  kindsJudged: number
  kindsRight: number
  /** True claims that are also informative (quality.ts). */
  claimsInformative: number
  /** Extracted entities (optional labels left out) that are the subject or object of a claim of their passage. */
  entitiesInClaims: number
  passages: number
}

export const zeroCounts = (): Counts => ({
  entitiesOut: 0,
  entitiesRight: 0,
  entitiesLabeled: 0,
  entitiesFound: 0,
  claimsOut: 0,
  claimsRight: 0,
  claimsLabeled: 0,
  claimsFound: 0,
  claimsLinking: 0,
  datedLabeled: 0,
  datedKept: 0,
  kindsJudged: 0,
  kindsRight: 0,
  claimsInformative: 0,
  entitiesInClaims: 0,
  passages: 0,
})

export function addCounts(into: Counts, from: Counts): Counts {
  for (const key of Object.keys(into) as (keyof Counts)[]) into[key] += from[key]
  return into
}

/** The extractor's kind spelled as the labels spell it. */
const labeledKind = (kind: string) => (kind === 'organization' ? 'organisation' : kind)

const words = (s: string) =>
  normalizeName(s)
    .split(/[^\p{L}\p{N}+.-]+/u)
    .filter(Boolean)

/** A word without its inflection ("created", "creates" and "create" are one), crudely. */
export const stem = (word: string) => word.toLowerCase().replace(/(ing|ed|es|s|e)$/, '')

function predicateMatches(produced: string, label: LabeledClaim): boolean {
  const tokens = produced.split(/\s+/)
  const negated = tokens[0] === 'not'
  if (negated !== (label.negated ?? false)) return false
  // A state said in the past is stored as "was"/"had" (docs/memory-graph.md, "Extractors"): the same lemma.
  const stems = new Set(tokens.map((t) => stem(t === 'was' ? 'be' : t === 'had' ? 'have' : t)))
  return label.predicates.some((p) => stems.has(stem(p)))
}

function literalMatches(produced: string, label: string): boolean {
  const p = normalizeName(produced)
  const l = normalizeName(label)
  return p.includes(l) || (p.length >= 4 && l.includes(p))
}

/** The labeled claim a produced claim states, if any. */
export function matchClaim(c: ScoredClaim, p: Passage): LabeledClaim | undefined {
  const names = referenceIndex(p.entities)
  const subject = names.get(normalizeName(c.subject))
  if (!subject || subject.kind === 'optional') return undefined
  return p.claims.find((l) => {
    if (normalizeName(l.subject) !== normalizeName(subject.name) || !predicateMatches(c.predicate, l)) return false
    if (l.objectIsEntity) return names.get(normalizeName(c.object))?.name === l.object
    return literalMatches(c.object, l.object)
  })
}

/**
 * "FSF stand for Free Software Foundation" when the labels give both as names of one entity: the
 * labels record an expansion as an alias, not as a claim, and it is what they say.
 */
export function expandsLabeledAcronym(c: ScoredClaim, p: Passage): boolean {
  if (c.predicate !== 'stand for' || c.objectIsEntity) return false
  const names = nameIndex(p.entities)
  const subject = names.get(normalizeName(c.subject))
  return (
    subject !== undefined &&
    subject.kind !== 'optional' &&
    names.get(normalizeName(c.object)) === subject &&
    normalizeName(c.subject) !== normalizeName(c.object)
  )
}

/** Whether the evaluation counts a claim right: it states a labeled claim, or expands a labeled acronym. */
export const isRightClaim = (c: ScoredClaim, p: Passage) => matchClaim(c, p) !== undefined || expandsLabeledAcronym(c, p)

/**
 * One passage: entities by normalized name or alias (a second name for an entity already
 * matched, such as "Ian" beside "Ian Murdock", is a duplicate and counts as wrong; optional
 * labels count neither way); claims by subject, predicate lemma, negation and object.
 */
export function scorePassage(p: Passage, out: { entities: CleanExtraction['entities']; claims: ScoredClaim[] }, into: Counts): void {
  into.passages++
  const names = nameIndex(p.entities)
  const matched = new Set<string>()
  const inClaims = new Set(out.claims.flatMap((c) => (c.objectIsEntity ? [normalizeName(c.subject), normalizeName(c.object)] : [normalizeName(c.subject)])))
  for (const e of out.entities) {
    const label = names.get(e.normalizedName)
    if (label?.kind === 'optional') continue
    into.entitiesOut++
    if (inClaims.has(e.normalizedName)) into.entitiesInClaims++
    if (label && !matched.has(label.name)) {
      matched.add(label.name)
      into.entitiesRight++
      into.kindsJudged++
      if (labeledKind(e.kind) === label.kind) into.kindsRight++
    }
  }
  const required = p.entities.filter((e) => e.kind !== 'optional')
  into.entitiesLabeled += required.length
  into.entitiesFound += required.filter((e) => matched.has(e.name)).length

  const found = new Set<LabeledClaim>()
  for (const c of out.claims) {
    into.claimsOut++
    if (c.objectIsEntity) into.claimsLinking++
    const label = matchClaim(c, p)
    if (!label) {
      if (expandsLabeledAcronym(c, p)) {
        into.claimsRight++
        into.claimsInformative++
      }
      continue
    }
    into.claimsRight++
    if (isInformative(c, label)) into.claimsInformative++
    if (!found.has(label) && label.date) {
      into.datedLabeled++
      if (c.when && words(c.when).some((w) => words(label.date ?? '').includes(w))) into.datedKept++
    }
    found.add(label)
  }
  into.claimsLabeled += p.claims.length
  into.claimsFound += found.size
}

export interface SplitGraph {
  /** Each passage's claims, as the projection keys them (normalized names). */
  claims: { passage: Passage; claim: ScoredClaim }[]
}

/**
 * Single-valued facts as the insights pass judges them (single-valued.ts): claims grouped by
 * subject and predicate (by object and predicate for a predicate single-valued on the object's
 * side, "X leads Debian"), names read as the labeled entity they name, each group's values read
 * as a timeline. A reported contradiction or
 * supersession is right when the labels name that fact with that kind.
 */
export function scoreFunctional(set: LabeledSet, split: Passage['split'], g: SplitGraph, maxObjects: number) {
  return scoreFunctionalLabels(
    (set.functional ?? []).filter((f) => f.split === split),
    g,
    maxObjects,
  )
}

/** The same against a given list of labeled facts (one package's, whatever their split). */
export function scoreFunctionalLabels(functional: readonly FunctionalLabel[], g: SplitGraph, maxObjects: number) {
  const groups = new Map<string, { value: string; when?: string }[]>()
  const add = (key: string, value: string, when?: string) => groups.set(key, [...(groups.get(key) ?? []), { value, when }])
  const indexes = new Map<Passage, Map<string, LabeledEntity>>()
  for (const { passage, claim } of g.claims) {
    // A name is read as the labeled entity it names ("stable distribution" is "stable"), as entities are scored.
    const names = indexes.get(passage) ?? indexes.set(passage, nameIndex(passage.entities)).get(passage) ?? new Map()
    const entity = (name: string) => normalizeName(names.get(normalizeName(name))?.name ?? name)
    const object = claim.objectIsEntity ? entity(claim.object) : normalizeName(claim.object)
    if (isSingleValuedPredicate(claim.predicate)) add(`${entity(claim.subject)}\u0000${claim.predicate}`, object, claim.when)
    if (claim.objectIsEntity && isSingleValuedForObject(claim.predicate)) add(`${object}\u0000${claim.predicate}`, entity(claim.subject), claim.when)
  }
  const labeled = new Map(functional.map((f) => [`${normalizeName(f.subject)}\u0000${f.predicate}`, f.kind]))
  const figures = (kind: 'contradiction' | 'supersession') => {
    const reported: string[] = []
    let right = 0
    for (const [key, values] of groups) {
      const t = timelineOf(values, maxObjects)
      if (t.kind !== kind) continue
      const shown = t.kind === 'supersession' ? t.order : t.kind === 'contradiction' ? t.values : []
      reported.push(`${key.replace('\u0000', ' ')}: ${shown.join(t.kind === 'supersession' ? ' -> ' : ' / ')}`)
      if (labeled.get(key) === kind) right++
    }
    const wanted = [...labeled.values()].filter((k) => k === kind).length
    return { reported: reported.length, right, labeled: wanted, examples: reported.slice(0, 3) }
  }
  return { contradictions: figures('contradiction'), supersessions: figures('supersession') }
}

/**
 * Communities of the split's entity graph (claims whose object is an entity, weighted by how
 * often they were seen), level 0 of the communities pass's clustering. A community of three or
 * more members is coherent when one labeled topic covers at least two thirds of its members; a
 * member counts for a topic when a passage of that topic labels its name (unlabeled names cover
 * nothing). Recall: of the labeled names in the graph, the share that sit in a coherent community.
 */
export function scoreCommunities(passages: readonly Passage[], g: SplitGraph, resolution: number) {
  const edges = new Map<string, WeightedEdge>()
  for (const { claim } of g.claims) {
    if (!claim.objectIsEntity) continue
    const a = normalizeName(claim.subject)
    const b = normalizeName(claim.object)
    if (a === b) continue
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`
    const edge = edges.get(key) ?? { a, b, weight: 0 }
    edge.weight++
    edges.set(key, edge)
  }
  const topicsOf = new Map<string, Set<string>>()
  for (const p of passages) {
    for (const [name, label] of nameIndex(p.entities)) {
      if (label.kind === 'optional') continue
      const t = topicsOf.get(name) ?? new Set<string>()
      for (const topic of p.topics) t.add(topic)
      topicsOf.set(name, t)
    }
  }
  const level = clusterLevels(edges.values(), { maxLevels: 1, resolution })[0] ?? []
  const big = level.filter((m) => m.length >= 3)
  const coherent = big.filter((members) => {
    const tally = new Map<string, number>()
    for (const m of members) for (const t of topicsOf.get(m) ?? []) tally.set(t, (tally.get(t) ?? 0) + 1)
    return Math.max(0, ...tally.values()) * 3 >= members.length * 2
  })
  const inGraph = new Set(level.flat().filter((m) => topicsOf.has(m)))
  const placed = new Set(coherent.flat().filter((m) => topicsOf.has(m)))
  return {
    communities: level.length,
    big: big.length,
    coherent: coherent.length,
    labeledInGraph: inGraph.size,
    labeledPlaced: placed.size,
    largest: big.slice(0, 3).map((m) => m.slice(0, 6).join(', ')),
  }
}
