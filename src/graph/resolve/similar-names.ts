/**
 * Dedup's similar-name search: every pair of names (of one kind) whose trigram sets have a
 * Jaccard index above a threshold, found by PPJoin (Xiao et al., "Efficient similarity joins for
 * near duplicate detection") over the trigram sets pg_trgm itself gives (`show_trgm`).
 *
 * Each name's trigrams are ordered rarest first. Names are visited smallest first; a visited
 * name is indexed by its first n - ceil(2t/(1+t)·n) + 1 trigrams, and probes the index with its
 * first n - ceil(t·n) + 1: two sets with Jaccard >= t share a trigram within those prefixes, so
 * no pair above t is missed. Length and positional filters drop most candidates before the
 * exact overlap is counted. Done in SQL, the same join costs a row per shared prefix trigram
 * (12 million for 100,000 names); here it is a loop over integer arrays.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises'

export interface NameTrigrams {
  id: string
  kind: string
  trigrams: string[]
}

/** Thresholds are compared with a little slack so float rounding can only widen a prefix. */
const SLACK = 1e-9
const ceilDown = (x: number) => Math.ceil(x - SLACK)

/**
 * Pairs [id, id] whose Jaccard index (pg_trgm's similarity: shared / (n1 + n2 − shared), as a
 * float4) is above `threshold`. Yields to the event loop between slices of the work, so a big
 * set never stalls the worker's loop for long.
 */
export async function similarNamePairs(names: readonly NameTrigrams[], threshold: number): Promise<[string, string][]> {
  const byKind = new Map<string, NameTrigrams[]>()
  for (const n of names) {
    const group = byKind.get(n.kind)
    if (group) group.push(n)
    else byKind.set(n.kind, [n])
  }
  const out: [string, string][] = []
  for (const group of byKind.values()) await joinKind(group, threshold, out)
  return out
}

async function joinKind(names: NameTrigrams[], t: number, out: [string, string][]): Promise<void> {
  // Trigrams as integers, rarest first (ties by text): one global order for the whole kind.
  const freq = new Map<string, number>()
  for (let i = 0; i < names.length; i++) {
    if (i % 20000 === 19999) await yieldToLoop()
    for (const g of names[i].trigrams) freq.set(g, (freq.get(g) ?? 0) + 1)
  }
  const order = [...freq].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const rank = new Map<string, number>()
  for (let i = 0; i < order.length; i++) rank.set(order[i][0], i)
  const records = names
    .filter((n) => n.trigrams.length > 0)
    .map((n) => ({ id: n.id, tokens: Int32Array.from(n.trigrams, (g) => rank.get(g) as number).sort() }))
    .sort((a, b) => a.tokens.length - b.tokens.length)

  const postings: number[][] = Array.from({ length: order.length }, () => [])
  // Names are visited by size, so a posting too short for this name is too short for every later one.
  const head = new Int32Array(order.length)
  const overlap = new Int32Array(records.length)
  const touched: number[] = []
  const PRUNED = -(2 ** 30)
  for (let x = 0; x < records.length; x++) {
    if (x % 2000 === 1999) await yieldToLoop()
    const xs = records[x].tokens
    const nx = xs.length
    const minLength = t * nx - SLACK
    const probe = Math.min(nx, nx - ceilDown(t * nx) + 1)
    for (let i = 0; i < probe; i++) {
      const w = xs[i]
      const list = postings[w]
      while (head[w] < list.length && records[list[head[w]]].tokens.length < minLength) head[w] += 2
      for (let k = head[w]; k < list.length; k += 2) {
        const y = list[k]
        const ny = records[y].tokens.length
        if (overlap[y] === PRUNED) continue
        const needed = ceilDown((t / (1 + t)) * (nx + ny))
        // The first shared trigram bounds the overlap by 1 + what either side has left after it.
        if (overlap[y] + 1 + Math.min(nx - i - 1, ny - list[k + 1] - 1) >= needed) {
          if (overlap[y] === 0) touched.push(y)
          overlap[y]++
        } else {
          if (overlap[y] === 0) touched.push(y)
          overlap[y] = PRUNED
        }
      }
    }
    for (const y of touched) {
      if (overlap[y] > 0) {
        const ys = records[y].tokens
        const shared = countShared(xs, ys)
        if (Math.fround(shared / (nx + ys.length - shared)) > t) out.push([records[y].id, records[x].id])
      }
      overlap[y] = 0
    }
    touched.length = 0
    const indexed = Math.min(nx, nx - ceilDown(((2 * t) / (1 + t)) * nx) + 1)
    for (let i = 0; i < indexed; i++) postings[xs[i]].push(x, i)
  }
}

function countShared(a: Int32Array, b: Int32Array): number {
  let i = 0
  let j = 0
  let n = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++
      i++
      j++
    } else if (a[i] < b[j]) i++
    else j++
  }
  return n
}
