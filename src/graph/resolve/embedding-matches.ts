/**
 * Name pairs that only an embedding can judge ("Debian 9" / "Debian 9 Stretch"): two names of
 * one kind that share an uncommon word, that no rule matched, and that are not the cases where
 * embeddings are known to be wrong: the same words in another order ("Document Foundation" /
 * "Foundation Documents") and one-word names (trigrams and spelling rules judge those:
 * "Oldstable" / "Oldoldstable"). A pair merges when the cosine of its names' vectors reaches
 * the threshold (AIZK_DEDUP_EMBEDDING_SIMILARITY).
 */
import type { NamedEntity, NamePair } from './match-names.js'
import { words } from './name-rules.js'

const COMMON_WORD = 50

export function embeddingCandidates(entities: readonly NamedEntity[], matched: ReadonlySet<string>): [NamedEntity, NamedEntity][] {
  const byWord = new Map<string, NamedEntity[]>()
  for (const e of entities)
    for (const w of new Set(words(e.name))) if (w.length >= 2) byWord.set(`${e.kind}\u0000${w}`, [...(byWord.get(`${e.kind}\u0000${w}`) ?? []), e])
  const seen = new Set<string>()
  const out: [NamedEntity, NamedEntity][] = []
  for (const list of byWord.values()) {
    if (list.length < 2 || list.length > COMMON_WORD) continue
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const [x, y] = [list[i], list[j]]
        const key = x.id < y.id ? `${x.id}|${y.id}` : `${y.id}|${x.id}`
        if (seen.has(key) || matched.has(key) || vetoed(x.name, y.name)) continue
        seen.add(key)
        out.push([x, y])
      }
    }
  }
  return out
}

function vetoed(a: string, b: string): boolean {
  const x = words(a)
  const y = words(b)
  if (x.length === 1 && y.length === 1) return true
  const bag = (ws: string[]) =>
    ws
      .map((w) => w.replace(/(['’]s|s)$/u, ''))
      .sort()
      .join(' ')
  return x.length === y.length && bag(x) === bag(y)
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i]
    na += a[i] * a[i]
    nb += b[i] * b[i]
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0
}

/** The candidates whose names' vectors are at least `threshold` alike; `embed` is called once, with every name needed. */
export async function embeddingMatches(
  candidates: [NamedEntity, NamedEntity][],
  embed: (texts: string[]) => Promise<number[][]>,
  threshold: number,
): Promise<NamePair[]> {
  if (candidates.length === 0) return []
  const names = [...new Set(candidates.flat().map((e) => e.name))]
  const vectors = await embed(names)
  const vectorOf = new Map(names.map((n, i) => [n, vectors[i]]))
  const out: NamePair[] = []
  for (const [x, y] of candidates) {
    const score = cosine(vectorOf.get(x.name) ?? [], vectorOf.get(y.name) ?? [])
    if (score >= threshold) out.push({ a: x.id, b: y.id, rule: 'embedding', score })
  }
  return out
}
