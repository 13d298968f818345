/** SQL on `profile`: one per entity, rebuilt by the profile pass when dirty. */
import type { Queryable } from '../../../db/queryable.js'

export interface DirtyProfile {
  entityId: string
  name: string
  kind: string
  mentions: number
}

/** Up to `limit` dirty profiles of exactly this set, locked for the rebuild. */
export async function lockDirtyProfiles(db: Queryable, scopes: readonly string[], limit: number): Promise<DirtyProfile[]> {
  const { rows } = await db.query<{ entity_id: string; name: string; kind: string; mentions: number }>(
    `SELECT p.entity_id::text, e.name, e.kind,
            (SELECT coalesce(sum(m.count), 0)::int FROM mention m WHERE m.entity_id = p.entity_id) AS mentions
       FROM profile p JOIN entity e ON e.id = p.entity_id
      WHERE p.scopes = $1::uuid[] AND p.dirty AND e.scopes = $1::uuid[]
      ORDER BY p.entity_id
      LIMIT $2
      FOR UPDATE OF p SKIP LOCKED`,
    [scopes, limit],
  )
  return rows.map((r) => ({ entityId: r.entity_id, name: r.name, kind: r.kind, mentions: r.mentions }))
}

export interface ProfileClaim {
  entityId: string
  claimId: string
  subject: string
  predicate: string
  object: string
  weight: number
}

/** The strongest live claims (not superseded, not faded) about each entity, as subject or object. */
export async function strongestClaims(db: Queryable, scopes: readonly string[], entityIds: string[], perEntity: number): Promise<ProfileClaim[]> {
  if (entityIds.length === 0) return []
  const { rows } = await db.query<{ entity_id: string; id: string; subject: string; predicate: string; object: string; weight: number }>(
    `SELECT p.e::text AS entity_id, c.id::text, s.name AS subject, c.predicate, coalesce(o.name, c.object_text) AS object, c.weight
       FROM unnest($2::uuid[]) AS p(e)
       CROSS JOIN LATERAL (
         SELECT * FROM claim c
          WHERE c.scopes = $1::uuid[] AND (c.subject_id = p.e OR c.object_id = p.e)
            AND c.superseded_by IS NULL AND NOT c.faded
          ORDER BY c.weight DESC, c.last_reinforced DESC, c.id
          LIMIT $3) c
       JOIN entity s ON s.id = c.subject_id
       LEFT JOIN entity o ON o.id = c.object_id
      ORDER BY p.e, c.weight DESC, c.last_reinforced DESC, c.id`,
    [scopes, entityIds, perEntity],
  )
  return rows.map((r) => ({ entityId: r.entity_id, claimId: r.id, subject: r.subject, predicate: r.predicate, object: r.object, weight: Number(r.weight) }))
}

export async function storeProfiles(db: Queryable, scopes: readonly string[], profiles: { entityId: string; summary: string; claimIds: string[] }[]): Promise<void> {
  if (profiles.length === 0) return
  await db.query(
    `UPDATE profile p SET summary = u.summary, claim_ids = u.claim_ids, dirty = false, refreshed_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS u(entity_id uuid, summary text, claim_ids uuid[])
      WHERE p.entity_id = u.entity_id AND p.scopes = $1::uuid[]`,
    [scopes, JSON.stringify(profiles.map((p) => ({ entity_id: p.entityId, summary: p.summary, claim_ids: p.claimIds })))],
  )
}

/** A dirty profile for every live entity of exactly this set that has none; returns how many. */
export async function createMissingProfiles(db: Queryable, scopes: readonly string[]): Promise<number> {
  const created = await db.query(
    `INSERT INTO profile (entity_id, scopes, dirty)
     SELECT e.id, $1::uuid[], true FROM entity e
      WHERE e.scopes = $1::uuid[] AND e.merged_into IS NULL
        AND NOT EXISTS (SELECT 1 FROM profile p WHERE p.entity_id = e.id)
     ON CONFLICT (entity_id) DO NOTHING`,
    [scopes],
  )
  return created.rowCount ?? 0
}

export async function markAllProfilesDirty(db: Queryable, scopes: readonly string[]): Promise<void> {
  await db.query('UPDATE profile SET dirty = true WHERE scopes = $1::uuid[] AND NOT dirty', [scopes])
}
