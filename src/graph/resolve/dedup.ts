/**
 * DedupJob's body: entity resolution within one scope set. Entities with equal normalized names
 * are one (whatever kind each extraction gave them); entities of one kind whose names are
 * trigram-similar above `dedupSimilarity` are one too, when their words agree in order
 * (name-compatibility.ts: "Babbages" is "Babbage", "Oldoldstable" is not "Oldstable"). Groups
 * are closed transitively; each folds into its oldest member (first seen, then id), which keeps its id, so references held
 * elsewhere stay valid and merged rows answer through `merged_into`.
 */
import type { Queryable } from '../../db/queryable.js'
import { compatibleNames } from './name-compatibility.js'
import { similarNamePairs } from './similar-names.js'
import { confirmSimilar, entityStamps, mergeEntities, nameTrigrams, sameNameGroups } from './sql/dedup-sql.js'

export interface DedupResult {
  merged: number
  claimsMoved: number
  claimsFolded: number
}

class Groups {
  private readonly parent = new Map<string, string>()
  find(x: string): string {
    let root = x
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root) as string
    this.parent.set(x, root)
    return root
  }
  union(a: string, b: string): void {
    const ra = this.find(a)
    const rb = this.find(b)
    if (ra !== rb) this.parent.set(rb, ra)
  }
  members(): Map<string, string[]> {
    const out = new Map<string, string[]>()
    for (const x of this.parent.keys()) {
      const root = this.find(x)
      out.set(root, [...(out.get(root) ?? []), x])
    }
    return out
  }
}

export async function dedupEntities(db: Queryable, scopes: readonly string[], similarity: number): Promise<DedupResult> {
  const groups = new Groups()
  for (const ids of await sameNameGroups(db, scopes)) for (const id of ids.slice(1)) groups.union(ids[0], id)
  if (similarity < 1) {
    const names = await nameTrigrams(db, scopes)
    const nameOf = new Map(names.map((n) => [n.id, n.name]))
    const found = await similarNamePairs(names, similarity)
    for (const [a, b] of await confirmSimilar(db, scopes, found, similarity)) {
      if (compatibleNames(nameOf.get(a) ?? '', nameOf.get(b) ?? '')) groups.union(a, b)
    }
  }
  const sets = [...groups.members().values()].filter((m) => m.length > 1)
  if (sets.length === 0) return { merged: 0, claimsMoved: 0, claimsFolded: 0 }
  const stamps = new Map((await entityStamps(db, scopes, sets.flat())).map((s) => [s.id, s.firstSeen.getTime()]))
  const from: string[] = []
  const to: string[] = []
  for (const members of sets) {
    const [keeper, ...rest] = members.sort((a, b) => (stamps.get(a) ?? 0) - (stamps.get(b) ?? 0) || a.localeCompare(b))
    for (const id of rest) {
      from.push(id)
      to.push(keeper)
    }
  }
  const moved = await mergeEntities(db, scopes, from, to)
  return { merged: from.length, ...moved }
}
