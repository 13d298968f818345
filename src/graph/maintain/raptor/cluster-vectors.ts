/**
 * RAPTOR's clustering step: group vectors by cosine similarity into clusters of at most
 * `maxSize`. Bisecting k-means: a cluster larger than the bound is split in two (2-means on unit
 * vectors, seeded with the two members farthest apart along a sample), until every cluster fits.
 * It costs about n · d · log(n / maxSize) per pass, where a flat k-means with n / maxSize
 * centres would cost n² · d / maxSize: 10,000 vectors cluster in well under a second.
 */
import { type RunTask, threadModule } from '../../cpu-thread.js'

export function unit(v: ArrayLike<number>): Float32Array {
  let norm = 0
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i]
  const out = new Float32Array(v.length)
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
  for (let i = 0; i < v.length; i++) out[i] = v[i] * scale
  return out
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * b[i]
  return s
}

function mean(vectors: Float32Array[], members: number[]): Float32Array {
  const out = new Float32Array(vectors[members[0]].length)
  for (const m of members) {
    const v = vectors[m]
    for (let i = 0; i < out.length; i++) out[i] += v[i]
  }
  return unit(out)
}

/** The member least similar to `from`. */
function farthest(vectors: Float32Array[], members: number[], from: Float32Array): number {
  let best = members[0]
  let low = Number.POSITIVE_INFINITY
  for (const m of members) {
    const s = dot(vectors[m], from)
    if (s < low) {
      low = s
      best = m
    }
  }
  return best
}

function bisect(vectors: Float32Array[], members: number[], iterations: number): [number[], number[]] {
  let a = vectors[farthest(vectors, members, mean(vectors, members))]
  let b = vectors[farthest(vectors, members, a)]
  let left: number[] = []
  let right: number[] = []
  for (let it = 0; it < iterations; it++) {
    left = []
    right = []
    for (const m of members) (dot(vectors[m], a) >= dot(vectors[m], b) ? left : right).push(m)
    if (left.length === 0 || right.length === 0) break
    a = mean(vectors, left)
    b = mean(vectors, right)
  }
  // Identical vectors cannot be told apart: halve them instead of looping forever.
  if (left.length === 0 || right.length === 0) {
    const half = Math.ceil(members.length / 2)
    return [members.slice(0, half), members.slice(half)]
  }
  return [left, right]
}

/** Indexes of `vectors`, grouped into clusters of at most `maxSize` members. */
export function clusterVectors(raw: ArrayLike<number>[], maxSize: number, iterations = 6): number[][] {
  const vectors = raw.map(unit)
  const done: number[][] = []
  const todo: number[][] = vectors.length ? [vectors.map((_, i) => i)] : []
  while (todo.length) {
    const members = todo.pop() as number[]
    if (members.length <= maxSize) done.push(members)
    else todo.push(...bisect(vectors, members, iterations))
  }
  return done.sort((x, y) => x[0] - y[0])
}

/** Clusters vectors as clusterVectors does, on RAPTOR's thread: the vectors cross packed in one array. */
export async function clusterVectorsOn(run: RunTask, raw: ArrayLike<number>[], maxSize: number): Promise<number[][]> {
  if (raw.length === 0) return []
  const dims = Math.max(...raw.map((v) => v.length))
  const packed = new Float32Array(raw.length * dims)
  raw.forEach((v, i) => {
    packed.set(v, i * dims)
  })
  return run<number[][]>({ packed, dims, maxSize }, [packed.buffer])
}

/** The module a RAPTOR thread loads (withThread in src/graph/cpu-thread.ts). */
export const raptorThread = (): string => threadModule(import.meta.url, 'cluster-thread')
