/**
 * What the weekly passes built, as a scope set sees it (inside User.system(scopes), through the
 * app role): communities by level with their members, the RAPTOR tree's levels, and insights
 * with their evidence claims. Read only; `aizk graph` shows it beside the entities and claims (read-graph.ts).
 */
import type pg from 'pg'
import { type IdentitySettings, User } from '../../scope/user.js'
import { COMMUNITIES_WITH_MEMBERS, INSIGHTS_WITH_EVIDENCE, RAPTOR_LEVELS } from './sql/maintenance-sql.js'

export interface CommunityView {
  id: string
  level: number
  parentId: string | null
  title: string
  summary: string
  /** The model's findings (GraphRAG-style), empty until a model has reported on it. */
  findings: { summary: string; explanation: string }[]
  /** When a model wrote its report; null for the extractive text alone. */
  reportedAt: string | null
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

export async function readMaintenance(
  pool: pg.Pool,
  scopes: Iterable<string>,
  settings: IdentitySettings,
  limit = 50,
  memberLimit = 12,
): Promise<MaintenanceView> {
  return User.system(scopes, settings).transaction(pool, async (db) => {
    const communities = await db.query<CommunityView & { parent_id: string | null; reported_at: Date | null }>(COMMUNITIES_WITH_MEMBERS, [limit, memberLimit])
    const raptor = await db.query<{ level: number; nodes: number; children: number; sample: string }>(RAPTOR_LEVELS)
    const insights = await db.query<{ id: string; kind: string; title: string; created: Date; evidence: InsightView['evidence'] }>(INSIGHTS_WITH_EVIDENCE, [
      limit,
    ])
    return {
      communities: communities.rows.map((r) => ({
        id: r.id,
        level: r.level,
        parentId: r.parent_id,
        title: r.title,
        summary: r.summary,
        findings: r.findings,
        reportedAt: r.reported_at ? r.reported_at.toISOString() : null,
        size: r.size,
        novelty: r.novelty,
        members: r.members,
      })),
      raptor: raptor.rows,
      insights: insights.rows.map((r) => ({ id: r.id, kind: r.kind, title: r.title, created: r.created.toISOString(), evidence: r.evidence })),
    }
  })
}
