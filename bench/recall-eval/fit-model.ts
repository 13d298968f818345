/**
 * Fitting recall's abstention model (docs/memory-graph.md, "Recall that knows when it doesn't
 * know"): a logistic model over the features of each question against its best items, on the recall
 * evaluation's questions. A question is a positive when it is answerable and its answer is in the
 * first five items, a negative when its right answer is nothing; an answerable question whose
 * answer does not rank is right neither way and is left out. Both kinds weigh alike, as the floor
 * is chosen; weights are shrunk toward 0 (L2), and Newton's method makes the fit deterministic.
 * The floor on the confidence is then chosen as the word floor was (calibrate.ts).
 */
import type { RecallModel } from '../../src/graph/read/recall-model.js'
import { confidenceOf } from '../../src/graph/read/recall-model.js'
import { bestFloor } from './calibrate.js'

export interface Example {
  package: string
  answerable: boolean
  /** Answerable: every needed fact within the first five items. */
  hit: boolean
  x: number[]
}

const L2 = 1
const ITERATIONS = 50

/** Solves a x = b by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]])
  for (let c = 0; c < n; c++) {
    let p = c
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r
    ;[m[c], m[p]] = [m[p], m[c]]
    for (let r = c + 1; r < n; r++) {
      const f = m[r][c] / m[c][c]
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k]
    }
  }
  const x = new Array<number>(n).fill(0)
  for (let r = n - 1; r >= 0; r--) x[r] = (m[r][n] - m[r].slice(r + 1, n).reduce((s, v, k) => s + v * x[r + 1 + k], 0)) / m[r][r]
  return x
}

const round = (v: number) => Number(v.toPrecision(6))

export function fitModel(examples: Example[]): RecallModel {
  const used = examples.filter((e) => !e.answerable || e.hit)
  const d = used[0]?.x.length ?? 0
  const mean = Array.from({ length: d }, (_, j) => round(used.reduce((s, e) => s + e.x[j], 0) / used.length))
  const scale = Array.from({ length: d }, (_, j) => {
    const sd = Math.sqrt(used.reduce((s, e) => s + (e.x[j] - mean[j]) ** 2, 0) / used.length)
    return round(sd > 1e-9 ? sd : 1)
  })
  const rows = used.map((e) => [1, ...e.x.map((v, j) => (v - mean[j]) / scale[j])])
  const y = used.map((e) => (e.answerable ? 1 : 0))
  const positives = y.filter((v) => v === 1).length
  // Each kind weighs half, whatever its count.
  const weight = y.map((v) => (v === 1 ? used.length / (2 * positives) : used.length / (2 * (used.length - positives))))
  let beta = new Array<number>(d + 1).fill(0)
  for (let it = 0; it < ITERATIONS; it++) {
    const p = rows.map((r) => 1 / (1 + Math.exp(-r.reduce((s, v, j) => s + v * beta[j], 0))))
    const grad = beta.map((b, j) => rows.reduce((s, r, i) => s + weight[i] * (p[i] - y[i]) * r[j], 0) + (j ? L2 * b : 0))
    const hess = beta.map((_, j) => beta.map((_, k) => rows.reduce((s, r, i) => s + weight[i] * p[i] * (1 - p[i]) * r[j] * r[k], 0) + (j === k && j ? L2 : 0)))
    const step = solve(hess, grad)
    beta = beta.map((b, j) => b - step[j])
    if (Math.max(...step.map(Math.abs)) < 1e-10) break
  }
  const model: RecallModel = { mean, scale, weights: beta.slice(1).map(round), bias: round(beta[0]), floor: 0.5 }
  const floor = bestFloor(examples.map((e) => ({ ...e, support: confidenceOf(e.x, model) })))
  return { ...model, floor }
}
