/**
 * The learned layer's training examples (docs/memory-graph.md, "A learned layer, scored leaving
 * one package out"): every candidate name the rules find in a labeled passage, labeled with the
 * evaluation's own matching rules (score.ts): a name or alias of the passage is positive with its
 * labeled kind, an optional label is left out, a second name for an entity already matched and
 * anything else is negative. Fits are per package left out, or on all (the shipped model).
 */
import { readChunk } from '../../src/graph/extract/learned/entity-candidates.js'
import { type EntityModel, fitEntityModel, type LabeledCandidate } from '../../src/graph/extract/learned/entity-model.js'
import { normalizeName } from '../../src/graph/extract/normalize.js'
import { nameIndex } from './labels.js'
import type { EvalPackage } from './packages.js'
import type { Passage } from './schema.js'

export function labeledCandidates(p: Passage): LabeledCandidate[] {
  const names = nameIndex(p.entities)
  const matched = new Set<string>()
  const out: LabeledCandidate[] = []
  for (const { entity, features } of readChunk(p.text).candidates) {
    const label = names.get(normalizeName(entity.name))
    if (label?.kind === 'optional') continue
    if (label && !matched.has(label.name)) {
      matched.add(label.name)
      out.push({ features, positive: true, kind: label.kind })
    } else out.push({ features, positive: false })
  }
  return out
}

/** Each package's examples, read once: passages in file order, packages in the evaluation's order. */
export function examplesByPackage(packages: readonly EvalPackage[]): Map<string, LabeledCandidate[]> {
  return new Map(packages.map((pkg) => [pkg.name, pkg.passages.flatMap(labeledCandidates)]))
}

/** The model for one package: fit on every other package's examples, never its own. */
export function fitLeavingOut(examples: ReadonlyMap<string, LabeledCandidate[]>, heldOut: string | undefined): EntityModel {
  return fitEntityModel([...examples].flatMap(([name, xs]) => (name === heldOut ? [] : xs)))
}
