/**
 * CommunitiesJob's body: cluster the set's entity graph into levels, describe each community
 * from its strongest claims, trace it to the previous build, and replace the set's communities,
 * all on the pass's one transaction, so a reader sees the old build or the new one, never half
 * of either. No model is asked here: with one configured, reports are written after the
 * rebuild commits (community-reports.ts).
 */
import { randomUUID } from 'node:crypto'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import type { Queryable } from '../../../db/queryable.js'
import {
  claimFacts,
  entityEdges,
  entityNames,
  type InternalClaims,
  internalClaims,
  type NewCommunity,
  previousCommunities,
  replaceCommunities,
} from '../sql/community-sql.js'
import { clusterOffThread } from './cluster-pool.js'
import { extractiveDescription } from './describe.js'
import { traceLineage } from './lineage.js'

export interface CommunityOptions {
  communitiesResolution: number
}

/** Levels of the hierarchy: the fourth level of a real graph is already a handful of communities. */
const MAX_LEVELS = 4
/** Strongest claims a community summary states and keeps as its evidence: a paragraph's worth. */
const SUMMARY_CLAIMS = 8

export interface CommunityBuild {
  levels: number
  communities: number
  entities: number
  edges: number
}

export async function buildCommunities(db: Queryable, scopes: readonly string[], opts: CommunityOptions, signal?: AbortSignal): Promise<CommunityBuild> {
  const edges = await entityEdges(db, scopes)
  const {
    ids: entityIds,
    a: { length: edgeCount },
  } = edges
  const levels = await clusterOffThread(edges, { maxLevels: MAX_LEVELS, resolution: opts.communitiesResolution }, signal)
  const claims = await internalClaims(db, scopes, entityIds)
  const names = await entityNames(db, [...new Set(levels[0]?.flat() ?? [])])
  const previous = await previousCommunities(db, scopes)
  // Each level's communities with their internal claims strongest first and their members most
  // connected first; sentences are then read for the claims a summary states, not for all. At
  // 100,000 claims a level is tens of milliseconds on the loop: it gets a turn between levels.
  const ranked: RankedCommunity[][] = []
  for (const groups of levels) {
    ranked.push(rankLevel(groups, entityIds, claims, SUMMARY_CLAIMS))
    await yieldToLoop()
  }
  const facts = await claimFacts(db, [...new Set(ranked.flatMap((level) => level.flatMap((c) => c.strongest)))])
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
    const ancestry = traceLineage(previous, level, groups)
    const ids = groups.map(() => randomUUID())
    for (let i = 0; i < groups.length; i++) {
      const members = groups[i]
      const { strongest, central, weight } = ranked[level][i]
      const { title, summary } = extractiveDescription({
        names: central.map((m) => names.get(m) ?? m),
        size: members.length,
        sentences: [],
        claims: strongest.flatMap((id) => facts.get(id) ?? []),
      })
      const parent = upper ? upper.ids[upper.at.get(members[0]) ?? -1] : undefined
      built.push({
        id: ids[i],
        level,
        parentId: parent ?? null,
        title,
        summary,
        weight,
        claimIds: strongest,
        members,
        ...ancestry[i],
      })
    }
    upper = { ids, at }
  }
  await replaceCommunities(db, scopes, built)
  return { levels: levels.length, communities: built.length, entities: names.size, edges: edgeCount }
}

interface RankedCommunity {
  /** The ids of its strongest internal claims (both ends inside), at most `keep`. */
  strongest: string[]
  /** Its 20 members with the most internal claim weight. */
  central: string[]
  /** The weight of all its internal claims. */
  weight: number
}

/**
 * One level's communities ranked, over numbered entities (typed arrays, no string keys: this
 * runs on the pass's loop). `claims` come strongest first, so each community's first `keep`
 * internal claims are its strongest.
 */
function rankLevel(groups: string[][], entityIds: readonly string[], claims: InternalClaims, keep: number): RankedCommunity[] {
  const number = new Map(entityIds.map((id, i) => [id, i]))
  const communityOf = new Int32Array(entityIds.length).fill(-1)
  groups.forEach((members, i) => {
    for (const m of members) communityOf[number.get(m) ?? -1] = i
  })
  const ranked = groups.map((): RankedCommunity => ({ strongest: [], central: [], weight: 0 }))
  const degree = new Float64Array(entityIds.length)
  for (let k = 0; k < claims.ids.length; k++) {
    const s = claims.subject[k]
    const o = claims.object[k]
    if (s < 0 || o < 0) continue
    const i = communityOf[s]
    if (i < 0 || i !== communityOf[o]) continue
    const community = ranked[i]
    if (community.strongest.length < keep) community.strongest.push(claims.ids[k])
    community.weight += claims.weight[k]
    degree[s] += claims.weight[k]
    degree[o] += claims.weight[k]
  }
  groups.forEach((members, i) => {
    const weightOf = (m: string) => degree[number.get(m) ?? -1] ?? 0
    ranked[i].central = [...members].sort((a, b) => weightOf(b) - weightOf(a) || (a < b ? -1 : 1)).slice(0, 20)
  })
  return ranked
}
