/**
 * Recall's abstention model (docs/memory-graph.md, "Recall that knows when it doesn't know"): a
 * logistic model over the features of the question against its best items (recall-features.ts),
 * whose output, the confidence that the items answer the question, is held to a floor. Fit on the
 * recall evaluation by bench/recall-eval/fit-model.ts (`npm run fit:recall`), shipped in
 * recall-weights.ts; test/unit/recall-weights.test.ts fails when the shipped weights are stale.
 */
import { FEATURES } from './recall-features.js'
import type { RecallFeatures } from './recall-types.js'
import { RECALL_WEIGHTS } from './recall-weights.js'

export interface RecallModel {
  /** Each feature's mean and spread over the questions fit on, to put them on one scale. */
  mean: number[]
  scale: number[]
  weights: number[]
  bias: number
  /** The confidence below which recall answers nothing. */
  floor: number
}

/** The shipped model's floor: recall's default. */
export const RECALL_FLOOR = RECALL_WEIGHTS.floor

export const featureVector = (f: RecallFeatures) => FEATURES.map((name) => f[name])

/** The model's confidence, 0 to 1, that the items answer the question. */
export function confidenceOf(x: number[], model: RecallModel = RECALL_WEIGHTS): number {
  const z = x.reduce((sum, v, i) => sum + model.weights[i] * ((v - model.mean[i]) / model.scale[i]), model.bias)
  return 1 / (1 + Math.exp(-z))
}
