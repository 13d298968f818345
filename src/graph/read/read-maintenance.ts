/**
 * What the weekly passes built, as a scope set sees it (inside User.system(scopes), through the
 * app role): communities by level with their members, the RAPTOR tree's levels, and insights
 * with their evidence claims. Read only; `aizk graph` shows it beside the entities and claims (read-graph.ts).
 */
import type pg from 'pg'
import { type IdentitySettings, User } from '../../scope/user.js'

export interface CommunityView {
  id: string
  level: number
  parentId: string | null
  title: string
  summary: string
  size: number
  novelty: string
  members: string[]
}

export interface RaptorLevelView {
  level: number
  nodes: number
  children: number
  sample: string
}

export interface InsightView {
  id: string
  kind: string
  title: string
  created: string
  evidence: { claimId: string; claim: string }[]
}

export interface MaintenanceView {
  communities: CommunityView[]
  raptor: RaptorLevelView[]
  insights: InsightView[]
}

export async function readMaintenance(pool: pg.Pool, scopes: Iterable<string>, settings: IdentitySettings, limit = 50, memberLimit = 12): Promise<MaintenanceView> {
  return User.system(scopes, settings).transaction(pool, async (db) => {
    const communities = await db.query<CommunityView & { parent_id: string | null }>(
      `SELECT c.id::text, c.level, c.parent_id::text, c.title, c.summary, c.size, c.novelty,
              ARRAY(WITH RECURSIVE below AS (
                      SELECT c.id UNION ALL SELECT x.id FROM below b JOIN community x ON x.parent_id = b.id)
                    SELECT e.name FROM below b JOIN community_member m ON m.community_id = b.id JOIN entity e ON e.id = m.entity_id
                     ORDER BY e.name LIMIT $2) AS members
         FROM community c ORDER BY c.level DESC, c.size DESC, c.title LIMIT $1`,
      [limit, memberLimit],
    )
    const raptor = await db.query<{ level: number; nodes: number; children: number; sample: string }>(
      `SELECT level, count(*)::int AS nodes, sum(cardinality(child_chunk_ids) + cardinality(child_node_ids))::int AS children,
              (array_agg(summary ORDER BY built_at, id))[1] AS sample
         FROM raptor_node GROUP BY level ORDER BY level`,
    )
    const insights = await db.query<{ id: string; kind: string; title: string; created: Date; evidence: InsightView['evidence'] }>(
      `SELECT i.id::text, i.kind, i.title, i.created,
              coalesce((SELECT json_agg(json_build_object('claimId', c.id, 'claim', s.name || ' ' || c.predicate || ' ' || coalesce(o.name, c.object_text)))
                          FROM insight_evidence ev JOIN claim c ON c.id = ev.claim_id JOIN entity s ON s.id = c.subject_id
                          LEFT JOIN entity o ON o.id = c.object_id WHERE ev.insight_id = i.id), '[]') AS evidence
         FROM insight i ORDER BY i.created DESC, i.kind, i.title LIMIT $1`,
      [limit],
    )
    return {
      communities: communities.rows.map((r) => ({
        id: r.id,
        level: r.level,
        parentId: r.parent_id,
        title: r.title,
        summary: r.summary,
        size: r.size,
        novelty: r.novelty,
        members: r.members,
      })),
      raptor: raptor.rows,
      insights: insights.rows.map((r) => ({ id: r.id, kind: r.kind, title: r.title, created: r.created.toISOString(), evidence: r.evidence })),
    }
  })
}
