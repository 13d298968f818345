/**
 * The labeled passages of test/fixtures/graph-eval/passages.json (docs/memory-graph.md,
 * "The evaluation"): loading them checked, and name resolution against a passage's labels.
 */
import { readFileSync } from 'node:fs'
import type { z } from 'zod'
import { normalizeName } from '../../src/graph/extract/normalize.js'
import { type FunctionalLabel, type LabeledEntity, oldSetSchema, type Passage } from './schema.js'

export type { FunctionalLabel, LabeledClaim, LabeledEntity, MergeLabel, PackageFile, Passage } from './schema.js'

export interface LabeledSet {
  /**
   * Facts that hold one value at a time: a supersession when each value replaced the last at a
   * known date, a contradiction when the sources really disagree. `subject` is the object's name
   * for a predicate single-valued on the object's side ("X leads Debian": Debian's leader).
   */
  functional?: FunctionalLabel[]
  passages: Passage[]
}

/** The old set (passages.json), checked against its schema and its own names. */
export function loadLabeledSet(path: string): LabeledSet {
  const set = parseLabels(path, oldSetSchema)
  checkPassages(path, set.passages)
  return set
}

/** Parses a labels file, or throws naming the file and every field that is wrong. */
export function parseLabels<T>(path: string, schema: z.ZodType<T>): T {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new Error(`${path}: not readable JSON (${(err as Error).message})`)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 10).map((i) => `  ${i.path.join('.') || '(top)'}: ${i.message}`)
    throw new Error(`${path}: labels do not follow the format (notes in docs/memory-graph.md, "The evaluation"):\n${issues.join('\n')}`)
  }
  return parsed.data
}

/**
 * What a schema cannot see: ids unique, and each claim's subject (and entity object) a labeled
 * name, alias or reference of its passage, so a claim label never silently matches nothing.
 */
export function checkPassages(path: string, passages: readonly Passage[], seen = new Set<string>()): void {
  const problems: string[] = []
  for (const p of passages) {
    if (seen.has(p.id)) problems.push(`passage id ${p.id} is used twice`)
    seen.add(p.id)
    const names = referenceIndex(p.entities)
    for (const c of p.claims) {
      if (!names.has(normalizeName(c.subject))) problems.push(`${p.id}: claim subject "${c.subject}" is not a labeled entity of the passage`)
      if (c.objectIsEntity && !names.has(normalizeName(c.object)))
        problems.push(`${p.id}: claim object "${c.object}" is marked an entity but is not labeled as one`)
    }
  }
  if (problems.length) throw new Error(`${path}:\n  ${problems.slice(0, 10).join('\n  ')}`)
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
