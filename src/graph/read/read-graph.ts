/**
 * A scope set's graph as that set sees it: read inside User.system(scopes) through the app role,
 * so row security shows rows whose scopes are contained in the set (its own and its subsets'),
 * never a wider set's. Merged entities are followed, not listed. Read only.
 */
import type pg from 'pg'
import { type IdentitySettings, User } from '../../scope/user.js'
import { GRAPH_TOTALS, RECENT_PROFILES, TOP_CLAIMS, TOP_ENTITIES } from './sql/graph-sql.js'

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
    const totals = await db.query<GraphView['totals']>(GRAPH_TOTALS)
    const entities = await db.query(TOP_ENTITIES, [limit, offset, kind])
    const claims = await db.query(TOP_CLAIMS, [limit, offset, kind])
    const profiles = await db.query(RECENT_PROFILES, [limit, offset, kind])
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
