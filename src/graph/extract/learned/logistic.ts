/**
 * Multinomial logistic regression over sparse binary features (docs/memory-graph.md, "A learned
 * layer, scored leaving one package out"). Training is deterministic: the vocabulary is sorted,
 * the examples are visited in the order given, full-batch AdaGrad for a fixed number of
 * iterations with an L2 penalty, and weights rounded so a refit writes the same file.
 */

export interface SoftmaxModel {
  classes: string[]
  bias: number[]
  /** Feature name to one weight per class; features the fit left at zero are absent. */
  weights: Record<string, number[]>
}

export interface Example {
  features: readonly string[]
  /** Index into the classes. */
  label: number
}

export interface FitOptions {
  iterations: number
  rate: number
  l2: number
  /** A feature seen in fewer training examples than this is left out of the vocabulary. */
  minCount: number
}

export const DEFAULT_FIT: FitOptions = { iterations: 300, rate: 0.3, l2: 0.001, minCount: 2 }

const DIGITS = 4
const round = (x: number) => Math.round(x * 10 ** DIGITS) / 10 ** DIGITS

function softmax(scores: number[]): number[] {
  const top = Math.max(...scores)
  const e = scores.map((s) => Math.exp(s - top))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map((x) => x / sum)
}

export function fitSoftmax(classes: readonly string[], examples: readonly Example[], options: FitOptions = DEFAULT_FIT): SoftmaxModel {
  const k = classes.length
  const seen = new Map<string, number>()
  for (const x of examples) for (const f of new Set(x.features)) seen.set(f, (seen.get(f) ?? 0) + 1)
  const vocabulary = [...seen]
    .filter(([, n]) => n >= options.minCount)
    .map(([f]) => f)
    .sort()
  const index = new Map(vocabulary.map((f, i) => [f, i]))
  // The examples' feature indexes, one flat array: example e's are rows[starts[e]] to rows[starts[e + 1]].
  const starts = new Int32Array(examples.length + 1)
  const flat: number[] = []
  examples.forEach((x, e) => {
    for (const f of [...new Set(x.features)].sort()) if (index.has(f)) flat.push(index.get(f) as number)
    starts[e + 1] = flat.length
  })
  const rows = Int32Array.from(flat)
  const w = new Float64Array(vocabulary.length * k)
  const b = new Float64Array(k)
  const gw = new Float64Array(w.length)
  const gb = new Float64Array(k)
  const hw = new Float64Array(w.length)
  const hb = new Float64Array(k)
  const p = new Float64Array(k)
  const n = Math.max(examples.length, 1)
  const step = (value: Float64Array, gradient: Float64Array, history: Float64Array, penalty: number) => {
    for (let i = 0; i < value.length; i++) {
      const g = gradient[i] / n + penalty * value[i]
      history[i] += g * g
      if (history[i] > 0) value[i] -= (options.rate * g) / Math.sqrt(history[i])
    }
  }
  for (let it = 0; it < options.iterations; it++) {
    gw.fill(0)
    gb.fill(0)
    for (let e = 0; e < examples.length; e++) {
      p.set(b)
      for (let r = starts[e]; r < starts[e + 1]; r++) for (let c = 0; c < k; c++) p[c] += w[rows[r] * k + c]
      let top = p[0]
      for (let c = 1; c < k; c++) top = Math.max(top, p[c])
      let sum = 0
      for (let c = 0; c < k; c++) sum += p[c] = Math.exp(p[c] - top)
      for (let c = 0; c < k; c++) {
        const g = p[c] / sum - (c === examples[e].label ? 1 : 0)
        gb[c] += g
        for (let r = starts[e]; r < starts[e + 1]; r++) gw[rows[r] * k + c] += g
      }
    }
    step(w, gw, hw, options.l2)
    step(b, gb, hb, 0)
  }
  const weights: Record<string, number[]> = {}
  vocabulary.forEach((f, i) => {
    const row = Array.from(w.subarray(i * k, (i + 1) * k), round)
    if (row.some((x) => x !== 0)) weights[f] = row
  })
  return { classes: [...classes], bias: Array.from(b, round), weights }
}

/** The probability of each class, in the model's class order. */
export function classProbabilities(model: SoftmaxModel, features: readonly string[]): number[] {
  const scores = [...model.bias]
  for (const f of new Set(features)) {
    const row = model.weights[f]
    if (row) for (let c = 0; c < scores.length; c++) scores[c] += row[c]
  }
  return softmax(scores)
}
