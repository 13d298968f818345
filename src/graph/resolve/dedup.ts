/**
 * DedupJob's body: entity resolution within one scope set (docs/memory-graph.md, "Resolution").
 * find-merges.ts gives every pair with a reason to be one entity (same normalized name, similar
 * spelling with the words in order, acronym, designators, partial name, embeddings when
 * configured); pairs whose merge an operator undid are never made again. Groups are closed
 * transitively; each folds into its oldest member (first seen, then id), which keeps its id, so
 * references held elsewhere stay valid and merged rows answer through `merged_into`. The
 * survivor shows the group's best name (better-name.ts). Every fold is recorded in
 * entity_merge with what it changed, so `aizk graph unmerge` can put it back.
 */
import type { Queryable } from '../../db/queryable.js'
import { betterName } from './better-name.js'
import { findMerges, type MergePair, type MergeRule } from './find-merges.js'
import { confirmSimilar, definedAcronyms, entityStamps, mergeEntities, nameTrigrams, type PlannedMerge } from './sql/dedup-sql.js'
import { undoneMergePairs } from './sql/merge-record-sql.js'

export interface DedupResult {
  merged: number
  claimsMoved: number
  claimsFolded: number
  byRule: Partial<Record<MergeRule, number>>
}

export interface DedupOptions {
  similarity: number
  embed?: (texts: string[]) => Promise<number[][]>
  embeddingSimilarity?: number
}

class Groups {
  private readonly parent = new Map<string, string>()
  /** How each member joined its group: the first pair that named it. */
  readonly reason = new Map<string, MergePair>()
  find(x: string): string {
    let root = x
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root) as string
    this.parent.set(x, root)
    return root
  }
  union(pair: MergePair): void {
    for (const id of [pair.a, pair.b]) if (!this.reason.has(id)) this.reason.set(id, pair)
    const ra = this.find(pair.a)
    const rb = this.find(pair.b)
    if (ra !== rb) this.parent.set(rb, ra)
  }
  members(): string[][] {
    const out = new Map<string, string[]>()
    for (const x of this.parent.keys()) {
      const root = this.find(x)
      out.set(root, [...(out.get(root) ?? []), x])
    }
    return [...out.values()].filter((m) => m.length > 1)
  }
}

const RULE_ORDER: MergeRule[] = ['same-name', 'designator', 'similar-name', 'acronym', 'partial-name', 'embedding']

export async function dedupEntities(db: Queryable, scopes: readonly string[], opts: DedupOptions): Promise<DedupResult> {
  const names = await nameTrigrams(db, scopes)
  const pairs = await findMerges(names, {
    similarity: opts.similarity,
    confirm: (found) => confirmSimilar(db, scopes, found, opts.similarity),
    definitions: (pairs) => definedAcronyms(db, scopes, pairs),
    embed: opts.embed,
    embeddingSimilarity: opts.embeddingSimilarity,
  })
  const undone = new Set((await undoneMergePairs(db, scopes)).flatMap(([m, i]) => [`${m}|${i}`, `${i}|${m}`]))
  const groups = new Groups()
  pairs.sort((x, y) => RULE_ORDER.indexOf(x.rule) - RULE_ORDER.indexOf(y.rule))
  for (const pair of pairs) if (!undone.has(`${pair.a}|${pair.b}`)) groups.union(pair)
  const sets = groups.members()
  if (sets.length === 0) return { merged: 0, claimsMoved: 0, claimsFolded: 0, byRule: {} }
  const stamps = new Map((await entityStamps(db, scopes, sets.flat())).map((s) => [s.id, s]))
  const merges: PlannedMerge[] = []
  const byRule: DedupResult['byRule'] = {}
  for (const members of sets) {
    const first = (id: string) => stamps.get(id)?.firstSeen.getTime() ?? 0
    const [keeper, ...rest] = members.sort((a, b) => first(a) - first(b) || a.localeCompare(b))
    const keptName = betterName(
      members.map((id) => ({ name: stamps.get(id)?.name ?? '', mentions: stamps.get(id)?.mentions ?? 0, kind: stamps.get(id)?.kind ?? '' })),
    )
    for (const id of rest) {
      const reason = groups.reason.get(id) as MergePair
      merges.push({ from: id, into: keeper, rule: reason.rule, score: reason.score, keptName })
      byRule[reason.rule] = (byRule[reason.rule] ?? 0) + 1
    }
  }
  const moved = await mergeEntities(db, scopes, merges)
  return { merged: merges.length, ...moved, byRule }
}
