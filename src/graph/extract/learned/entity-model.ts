/**
 * The learned layer over the rules' candidate names (docs/memory-graph.md, "A learned layer,
 * scored leaving one package out"): one logistic model keeps or drops a candidate, a
 * multinomial one gives the kind of those kept. The shipped model (entity-weights.json) is fit
 * on every labeled package by `npm run train:graph`; the evaluation fits one per package on the
 * others.
 */
import shipped from './entity-weights.json' with { type: 'json' }
import { classProbabilities, DEFAULT_FIT, type Example, type FitOptions, fitSoftmax, type SoftmaxModel } from './logistic.js'

/** The kinds a kept entity gets, as the labels spell them (bench/graph-eval/schema.ts, less "optional"). */
export const ENTITY_KINDS = ['person', 'organisation', 'place', 'concept', 'event', 'product'] as const

export interface EntityModel {
  /** Classes ['drop', 'keep']. */
  keep: SoftmaxModel
  kind: SoftmaxModel
  /** A candidate is kept when its probability of 'keep' reaches this. */
  threshold: number
}

export interface LabeledCandidate {
  features: readonly string[]
  /** True when the candidate names a labeled entity; its labeled kind then. */
  positive: boolean
  kind?: string
}

export interface Verdict {
  keep: boolean
  kind: string
  probability: number
}

export const shippedEntityModel: EntityModel = shipped as EntityModel

export function judgeCandidate(model: EntityModel, features: readonly string[]): Verdict {
  const probability = classProbabilities(model.keep, features)[1]
  const kinds = classProbabilities(model.kind, features)
  let best = 0
  for (let c = 1; c < kinds.length; c++) if (kinds[c] > kinds[best]) best = c
  return { keep: probability >= model.threshold, kind: model.kind.classes[best], probability }
}

export function fitEntityModel(candidates: readonly LabeledCandidate[], options: FitOptions = DEFAULT_FIT, threshold = 0.5): EntityModel {
  const keep: Example[] = candidates.map((c) => ({ features: c.features, label: c.positive ? 1 : 0 }))
  const kind: Example[] = candidates.flatMap((c) => {
    const label = ENTITY_KINDS.indexOf((c.kind ?? '') as (typeof ENTITY_KINDS)[number])
    return c.positive && label >= 0 ? [{ features: c.features, label }] : []
  })
  return { keep: fitSoftmax(['drop', 'keep'], keep, options), kind: fitSoftmax(ENTITY_KINDS, kind, options), threshold }
}
