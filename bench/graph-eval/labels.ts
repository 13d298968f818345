/**
 * The labeled passages of test/fixtures/graph-eval/passages.json (docs/memory-graph.md,
 * "The evaluation"): their shape, and name resolution against a passage's labels.
 */
import { readFileSync } from 'node:fs'
import { normalizeName } from '../../src/graph/extract/normalize.js'

export interface LabeledEntity {
  name: string
  /** person, organisation, place, concept, event, product; 'optional' is neither wanted nor wrong. */
  kind: string
  aliases: string[]
  /** Phrases that refer to it in a claim ("the project") without being its name. */
  refs?: string[]
}

export interface LabeledClaim {
  subject: string
  /** Any one of these lemmas in the predicate matches. */
  predicates: string[]
  object: string
  objectIsEntity: boolean
  negated?: boolean
  date?: string
}

export interface Passage {
  id: string
  split: 'tune' | 'held-out'
  genre: string
  topics: string[]
  source: { package: string; version: string; file: string; lines: string; converted?: string }
  text: string
  entities: LabeledEntity[]
  claims: LabeledClaim[]
}

export interface LabeledSet {
  /**
   * Facts that hold one value at a time: a supersession when each value replaced the last at a
   * known date, a contradiction when the sources really disagree. `subject` is the object's name
   * for a predicate single-valued on the object's side ("X leads Debian": Debian's leader).
   */
  functional?: { subject: string; predicate: string; kind: 'contradiction' | 'supersession'; split: Passage['split']; note?: string }[]
  passages: Passage[]
}

export function loadLabeledSet(path: string): LabeledSet {
  return JSON.parse(readFileSync(path, 'utf8')) as LabeledSet
}

/** A passage's names (and aliases), normalized, to the labeled entity they name. */
export function nameIndex(entities: readonly LabeledEntity[]): Map<string, LabeledEntity> {
  const index = new Map<string, LabeledEntity>()
  for (const e of entities) for (const n of [e.name, ...e.aliases]) index.set(normalizeName(n), e)
  return index
}

/** The same, with the phrases that refer to an entity in a claim. */
export function referenceIndex(entities: readonly LabeledEntity[]): Map<string, LabeledEntity> {
  const index = nameIndex(entities)
  for (const e of entities) for (const n of e.refs ?? []) if (!index.has(normalizeName(n))) index.set(normalizeName(n), e)
  return index
}
