/**
 * Recall's walk of the graph around the entities a question names (docs/memory-graph.md, "Reading
 * the graph"): their claims in and out, then the neighbours' claims at half strength, each claim
 * weighted by its decayed weight.
 */
import type { PoolClient } from 'pg'
import type { TimeSpan } from '../time-span.js'
import { rankBy } from './recall-fuse.js'
import * as sql from './sql/recall-sql.js'

const NEIGHBOURS = 8
const CLAIMS_PER_ENTITY = 25
const SECOND_HOP = 0.5

export interface ClaimRow {
  id: string
  subject_id: string
  subject: string
  predicate: string
  object_id: string | null
  object: string
  weight: number
  created: Date
  valid_from: string | null
  valid_to: string | null
  ended_by: string | null
  last_reinforced: Date
  scopes: string[]
  text_rank: number
  coverage: number
}

/** A claim the walk reached: its strength through the graph, and at which hop (0: found by its words alone). */
export type WalkedClaim = ClaimRow & { graph: number; hops: number }

/** Where and when the walk reads: the moment known, the period asked about, the question's terms. */
export interface WalkBounds {
  at: Date
  span: TimeSpan | null
  terms: { tsquery: string; lexemes: string[] }
}

/** The claims around the seed entities (and those the question's words found), one hop and a second, by id. */
export async function walkGraph(db: PoolClient, seedScore: Map<string, number>, claimHits: string[], bounds: WalkBounds): Promise<Map<string, WalkedClaim>> {
  const first = await claimsAround(db, [...seedScore.keys()], claimHits, bounds)
  const neighbourScore = neighbourScores(first, seedScore)
  const neighbours = rankBy(
    neighbourScore.entries(),
    ([id]) => id,
    ([, s]) => s,
  ).slice(0, NEIGHBOURS)
  const second = neighbours.length ? await claimsAround(db, neighbours, [], bounds) : []
  return mergeHops(first, second, seedScore, neighbourScore)
}

/** The entities at the other end of the first hop's claims, each as strong as its strongest link to a seed. */
function neighbourScores(first: ClaimRow[], seedScore: Map<string, number>): Map<string, number> {
  const neighbourScore = new Map<string, number>()
  for (const c of first) {
    const strength = (seedScore.get(c.subject_id) ?? seedScore.get(c.object_id ?? '') ?? 0) * c.weight * SECOND_HOP
    for (const other of [c.subject_id, c.object_id]) {
      if (other && !seedScore.has(other)) neighbourScore.set(other, Math.max(neighbourScore.get(other) ?? 0, strength))
    }
  }
  return neighbourScore
}

function mergeHops(first: ClaimRow[], second: ClaimRow[], seedScore: Map<string, number>, neighbourScore: Map<string, number>): Map<string, WalkedClaim> {
  const claims = new Map<string, WalkedClaim>()
  for (const [rows, hop] of [
    [first, 1],
    [second, 2],
  ] as const) {
    for (const c of rows) {
      const near = hop === 1 ? seedScore : neighbourScore
      const graph = Math.max(near.get(c.subject_id) ?? 0, near.get(c.object_id ?? '') ?? 0) * Number(c.weight) * (hop === 1 ? 1 : SECOND_HOP)
      const had = claims.get(c.id)
      if (had) had.graph = Math.max(had.graph, graph)
      else claims.set(c.id, { ...c, weight: Number(c.weight), text_rank: Number(c.text_rank), coverage: Number(c.coverage), graph, hops: graph > 0 ? hop : 0 })
    }
  }
  return claims
}

async function claimsAround(db: PoolClient, entityIds: string[], claimIds: string[], { at, span, terms }: WalkBounds): Promise<ClaimRow[]> {
  if (!entityIds.length && !claimIds.length) return []
  const args = [entityIds, claimIds, at, CLAIMS_PER_ENTITY, terms.tsquery, terms.lexemes, span?.start ?? null, span?.end ?? null]
  return (await db.query<ClaimRow>(sql.CLAIMS_AROUND, args)).rows
}
