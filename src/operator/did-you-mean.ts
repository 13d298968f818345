/** Nearest names for a mistyped one (edit distance, plus substring matches). */

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]
    prev[0] = i
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1))
      diag = tmp
    }
  }
  return prev[b.length]
}

/** Up to `max` candidates near `name`, nearest first; none when nothing is close. */
export function suggest(name: string, candidates: string[], max = 3): string[] {
  const n = name.toLowerCase()
  const scored = candidates.map((c) => {
    const lc = c.toLowerCase()
    const d = editDistance(n, lc)
    const contains = n.length >= 3 && (lc.includes(n) || n.includes(lc))
    return { c, score: contains ? Math.min(d, 1) : d }
  })
  const limit = Math.max(2, Math.ceil(n.length * 0.4))
  return scored
    .filter((s) => s.score <= limit)
    .sort((a, b) => a.score - b.score || a.c.localeCompare(b.c))
    .slice(0, max)
    .map((s) => s.c)
}
