/** Reciprocal-rank fusion: an item's score is the sum over the rankings that hold it of 1/(k + place). */

export const RRF_K = 60

export interface Ranking {
  name: string
  /** Item keys, best first. */
  keys: string[]
  weight?: number
}

export interface Fused {
  key: string
  score: number
  why: string[]
}

export function fuse(rankings: readonly Ranking[]): Fused[] {
  const byKey = new Map<string, Fused>()
  for (const r of rankings) {
    r.keys.forEach((key, i) => {
      let f = byKey.get(key)
      if (!f) {
        f = { key, score: 0, why: [] }
        byKey.set(key, f)
      }
      f.score += (r.weight ?? 1) / (RRF_K + i + 1)
      f.why.push(`${r.name} #${i + 1}`)
    })
  }
  return [...byKey.values()].sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
}

/** Keys of `entries` ordered by their value, highest first, ties by key. */
export function rankBy<T>(entries: Iterable<T>, key: (t: T) => string, value: (t: T) => number): string[] {
  return [...entries]
    .filter((t) => value(t) > 0)
    .sort((a, b) => value(b) - value(a) || (key(a) < key(b) ? -1 : 1))
    .map(key)
}
