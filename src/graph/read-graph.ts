/**
 * A scope set's graph as that set sees it: read inside User.system(scopes) through the app role,
 * so row security shows rows whose scopes are contained in the set (its own and its subsets'),
 * never a wider set's. Merged entities are followed, not listed. Read only.
 */
import type pg from 'pg'
import { type IdentitySettings, User } from '../scope/user.js'

export interface GraphEntity {
  id: string
  name: string
  kind: string
  scopes: string[]
  mentions: number
  firstSeen: string
  lastSeen: string
}

export interface GraphClaim {
  id: string
  subject: string
  predicate: string
  object: string
  objectIsEntity: boolean
  weight: number
  faded: boolean
  supersededBy: string | null
  scopes: string[]
  lastReinforced: string
  sources: { chunkId: string; from: string | null }[]
}

export interface GraphProfile {
  entityId: string
  name: string
  scopes: string[]
  summary: string | null
  claimIds: string[]
  dirty: boolean
  refreshedAt: string | null
}

export interface GraphView {
  scopes: string[]
  totals: { entities: number; claims: number; mentions: number; profiles: number }
  entities: GraphEntity[]
  claims: GraphClaim[]
  profiles: GraphProfile[]
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

export interface GraphPage {
  /** Rows of each kind to skip (strongest first), for paging. */
  offset?: number
  /** Only entities of this kind, claims about them and their profiles. */
  kind?: string
}

export async function readGraph(pool: pg.Pool, scopes: Iterable<string>, settings: IdentitySettings, limit = 50, page: GraphPage = {}): Promise<GraphView> {
  const offset = page.offset ?? 0
  const kind = page.kind ?? null
  const user = User.system(scopes, settings)
  return user.transaction(pool, async (db) => {
    const totals = await db.query<GraphView['totals']>(
      `SELECT (SELECT count(*)::int FROM entity WHERE merged_into IS NULL) AS entities,
              (SELECT count(*)::int FROM claim WHERE subject_id IS NOT NULL) AS claims,
              (SELECT count(*)::int FROM mention) AS mentions,
              (SELECT count(*)::int FROM profile) AS profiles`,
    )
    const entities = await db.query(
      `SELECT e.id::text, e.name, e.kind, e.scopes::text[] AS scopes, e.first_seen, e.last_seen,
              coalesce((SELECT sum(m.count) FROM mention m WHERE m.entity_id = e.id), 0)::int AS mentions
         FROM entity e WHERE e.merged_into IS NULL AND ($3::text IS NULL OR e.kind = $3)
        ORDER BY mentions DESC, e.name, e.id LIMIT $1 OFFSET $2`,
      [limit, offset, kind],
    )
    const claims = await db.query(
      `SELECT c.id::text, s.name AS subject, c.predicate, coalesce(o.name, c.object_text) AS object, c.object_id IS NOT NULL AS object_is_entity,
              c.weight, c.faded, c.superseded_by::text, c.scopes::text[] AS scopes, c.last_reinforced,
              coalesce((SELECT json_agg(json_build_object('chunkId', cs.chunk_id, 'from', coalesce(a.filename, d.title)) ORDER BY cs.observed)
                          FROM claim_source cs JOIN chunk ch ON ch.id = cs.chunk_id
                          LEFT JOIN artifact a ON a.id = ch.artifact_id LEFT JOIN document d ON d.id = ch.document_id
                         WHERE cs.claim_id = c.id), '[]') AS sources
         FROM claim c JOIN entity s ON s.id = c.subject_id LEFT JOIN entity o ON o.id = c.object_id
        WHERE $3::text IS NULL OR s.kind = $3
        ORDER BY c.weight DESC, c.last_reinforced DESC, c.id LIMIT $1 OFFSET $2`,
      [limit, offset, kind],
    )
    const profiles = await db.query(
      `SELECT p.entity_id::text, e.name, p.scopes::text[] AS scopes, p.summary, p.claim_ids::text[] AS claim_ids, p.dirty, p.refreshed_at
         FROM profile p JOIN entity e ON e.id = p.entity_id
        WHERE $3::text IS NULL OR e.kind = $3
        ORDER BY p.refreshed_at DESC NULLS LAST, e.name, e.id LIMIT $1 OFFSET $2`,
      [limit, offset, kind],
    )
    return {
      scopes: [...user.read],
      totals: totals.rows[0],
      entities: entities.rows.map((r) => ({
        id: r.id,
        name: r.name,
        kind: r.kind,
        scopes: r.scopes,
        mentions: r.mentions,
        firstSeen: iso(r.first_seen) as string,
        lastSeen: iso(r.last_seen) as string,
      })),
      claims: claims.rows.map((r) => ({
        id: r.id,
        subject: r.subject,
        predicate: r.predicate,
        object: r.object,
        objectIsEntity: r.object_is_entity,
        weight: Number(r.weight),
        faded: r.faded,
        supersededBy: r.superseded_by,
        scopes: r.scopes,
        lastReinforced: iso(r.last_reinforced) as string,
        sources: r.sources,
      })),
      profiles: profiles.rows.map((r) => ({
        entityId: r.entity_id,
        name: r.name,
        scopes: r.scopes,
        summary: r.summary,
        claimIds: r.claim_ids,
        dirty: r.dirty,
        refreshedAt: iso(r.refreshed_at),
      })),
    }
  })
}
