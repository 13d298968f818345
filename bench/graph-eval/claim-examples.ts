/**
 * The claim model's training examples (docs/memory-graph.md, "A learned layer, scored leaving one
 * package out"): every claim the rules and a given entity model extract from a labeled passage,
 * with its features, labeled with the evaluation's own matching (score.ts isRightClaim, on the
 * claim as the evaluation cleans it): right when the evaluation counts it right, wrong otherwise. Whatever claims the rules give, a retrain learns over them.
 */
import { extractFeatured } from '../../src/graph/extract/builtin-extractor.js'
import { cleanExtraction } from '../../src/graph/extract/extraction.js'
import { type ClaimModel, fitClaimModel, type LabeledClaimExample } from '../../src/graph/extract/learned/claim-model.js'
import { type ReadChunk, readChunk } from '../../src/graph/extract/learned/entity-candidates.js'
import type { EntityModel } from '../../src/graph/extract/learned/entity-model.js'
import type { EvalPackage } from './packages.js'
import { scoredClaim } from './quality.js'
import type { Passage } from './schema.js'
import { isRightClaim } from './score.js'

/** Each passage read once: the folds extract the same chunks with different entity models. */
export type ReadPassages = Map<Passage, ReadChunk>

export const readPassages = (packages: readonly EvalPackage[]): ReadPassages =>
  new Map(packages.flatMap((pkg) => pkg.passages.map((p) => [p, readChunk(p.text)] as const)))

export function labeledClaims(p: Passage, chunk: ReadChunk, entities: EntityModel): LabeledClaimExample[] {
  const out = extractFeatured(chunk, entities)
  return out.claims.flatMap(({ claim, features }) => {
    const [clean] = cleanExtraction({ entities: out.entities, claims: [claim] }).claims
    return clean ? [{ features, right: isRightClaim(scoredClaim(clean), p) }] : []
  })
}

/** The claim model for one package: fit on every other package's claims as `entities` (fit without it too) extracts them. */
export function fitClaimsLeavingOut(packages: readonly EvalPackage[], read: ReadPassages, entities: EntityModel, heldOut: string | undefined): ClaimModel {
  const examples = packages
    .filter((pkg) => pkg.name !== heldOut)
    .flatMap((pkg) => pkg.passages.flatMap((p) => labeledClaims(p, read.get(p) ?? readChunk(p.text), entities)))
  return fitClaimModel(examples)
}
