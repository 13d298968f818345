/**
 * CommunitiesJob's body: cluster the set's entity graph into levels, describe each community,
 * trace it to the previous build, and replace the set's communities, all on the pass's one
 * transaction, so a reader sees the old build or the new one, never half of either.
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../db/queryable.js'
import { entityEdges, entityNames, internalClaims, type NewCommunity, previousCommunities, replaceCommunities } from '../sql/community-sql.js'
import { clusterLevels } from './cluster-levels.js'
import { type DescribeSettings, describeCommunity } from './describe.js'
import { traceLineage } from './lineage.js'

export interface CommunityOptions extends DescribeSettings {
  communitiesMaxLevels: number
  communitiesResolution: number
  communitiesSummaryClaims: number
}

export interface CommunityBuild {
  levels: number
  communities: number
  entities: number
  edges: number
}

export async function buildCommunities(db: Queryable, scopes: readonly string[], opts: CommunityOptions, signal?: AbortSignal): Promise<CommunityBuild> {
  const edges = await entityEdges(db, scopes)
  const levels = clusterLevels(edges, { maxLevels: opts.communitiesMaxLevels, resolution: opts.communitiesResolution })
  const claims = await internalClaims(db, scopes)
  const names = await entityNames(db, [...new Set(levels[0]?.flat() ?? [])])
  const previous = await previousCommunities(db, scopes)
  const built: NewCommunity[] = []
  let upper: { ids: string[]; at: Map<string, number> } | undefined
  // Top level first, so each community below knows its parent's id.
  for (let level = levels.length - 1; level >= 0; level--) {
    signal?.throwIfAborted()
    const groups = levels[level]
    const at = new Map<string, number>()
    groups.forEach((members, i) => {
      for (const m of members) at.set(m, i)
    })
    const inside = groups.map(() => [] as typeof claims)
    const degree = new Map<string, number>()
    for (const c of claims) {
      const i = at.get(c.subjectId)
      if (i === undefined || i !== at.get(c.objectId)) continue
      inside[i].push(c)
      degree.set(c.subjectId, (degree.get(c.subjectId) ?? 0) + c.weight)
      degree.set(c.objectId, (degree.get(c.objectId) ?? 0) + c.weight)
    }
    const ancestry = traceLineage(previous, level, groups)
    const ids = groups.map(() => randomUUID())
    for (let i = 0; i < groups.length; i++) {
      const members = groups[i]
      const strongest = inside[i].sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : 1)).slice(0, opts.communitiesSummaryClaims)
      const ranked = [...members].sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || (a < b ? -1 : 1))
      const { title, summary } = await describeCommunity(
        opts,
        { names: ranked.slice(0, 20).map((m) => names.get(m) ?? m), size: members.length, sentences: strongest.map((c) => c.sentence) },
        signal,
      )
      const parent = upper ? upper.ids[upper.at.get(members[0]) ?? -1] : undefined
      built.push({
        id: ids[i],
        level,
        parentId: parent ?? null,
        title,
        summary,
        weight: inside[i].reduce((w, c) => w + c.weight, 0),
        claimIds: strongest.map((c) => c.id),
        members,
        ...ancestry[i],
      })
    }
    upper = { ids, at }
  }
  await replaceCommunities(db, scopes, built)
  return { levels: levels.length, communities: built.length, entities: names.size, edges: edges.length }
}
