/**
 * The learned layer's second model (docs/memory-graph.md, "A learned layer, scored leaving one
 * package out"): a logistic regression that keeps or drops each claim the rules extracted, over
 * claim-features.ts. The evaluation fits one per package on the others' claims and scores it; it
 * is not shipped: leaving one package out it bought two points of claim precision for a quarter
 * of the right claims (docs/memory-graph.md), so the extractor's default layer has no claim model.
 */
import { type EntityModel, shippedEntityModel } from './entity-model.js'
import { classProbabilities, DEFAULT_FIT, type FitOptions, fitSoftmax, type SoftmaxModel } from './logistic.js'

export interface ClaimModel {
  /** Classes ['drop', 'keep']. */
  keep: SoftmaxModel
  /** A claim is kept when its probability of 'keep' reaches this. */
  threshold: number
  /**
   * The rules (claim-features.ts `source=`) the training claims exercised often enough to judge;
   * a claim from any other rule is kept, as the rules alone would: the model knows nothing of it.
   */
  judged: string[]
}

export interface LabeledClaimExample {
  features: readonly string[]
  /** True when the claim states a labeled claim of its passage (the evaluation's matching). */
  right: boolean
}

/** Both models of the built-in extractor's learned layer; `claims` null keeps every claim the rules find about a kept name. */
export interface LearnedLayer {
  entities: EntityModel
  claims: ClaimModel | null
}

export const shippedLayer: LearnedLayer = { entities: shippedEntityModel, claims: null }

export function claimKeepProbability(model: ClaimModel, features: readonly string[]): number {
  return classProbabilities(model.keep, features)[1]
}

export function keepsClaim(model: ClaimModel, features: readonly string[]): boolean {
  if (!features.some((f) => model.judged.includes(f))) return true
  return claimKeepProbability(model, features) >= model.threshold
}

/**
 * A feature seen in fewer than five training claims is left out (two for the entity model): about
 * 200 labeled claims, and an inner leave-one-package-out inside the training folds (log-likelihood)
 * picked 5 over 2 and 10 in 11 of 14 folds.
 */
export const CLAIM_FIT: FitOptions = { ...DEFAULT_FIT, minCount: 5 }

/** Fewer training claims from one rule than this, and the model does not judge that rule's claims. */
export const MIN_CLAIMS_OF_A_RULE = 20

export function fitClaimModel(examples: readonly LabeledClaimExample[], options: FitOptions = CLAIM_FIT, threshold = 0.5): ClaimModel {
  const perSource = new Map<string, number>()
  for (const x of examples) for (const f of x.features) if (f.startsWith('source=')) perSource.set(f, (perSource.get(f) ?? 0) + 1)
  const judged = [...perSource].flatMap(([f, n]) => (n >= MIN_CLAIMS_OF_A_RULE ? [f] : [])).sort()
  return {
    keep: fitSoftmax(
      ['drop', 'keep'],
      examples.map((x) => ({ features: x.features, label: x.right ? 1 : 0 })),
      options,
    ),
    threshold,
    judged,
  }
}
