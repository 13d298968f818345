/** SQL on `profile`: one per entity, rebuilt by the profile pass when dirty. */
import type { Queryable } from '../../../db/queryable.js'

export interface DirtyProfile {
  entityId: string
  name: string
  kind: string
  mentions: number
  /** The sentence the text gave that says what it is (entity.description). */
  description: string | null
}

/**
 * Take up to `limit` dirty profiles of exactly this set for a rebuild made outside any
 * transaction: each is marked clean and claimed now, so a projection that dirties it meanwhile
 * is kept for the next pass, and one whose claim is older than `staleSeconds` (its rebuild died)
 * is taken again.
 */
export async function claimDirtyProfiles(db: Queryable, scopes: readonly string[], limit: number, staleSeconds: number): Promise<DirtyProfile[]> {
  const { rows } = await db.query<{ entity_id: string; name: string; kind: string; mentions: number; description: string | null }>(
    `WITH taken AS (
       SELECT p.entity_id FROM profile p JOIN entity e ON e.id = p.entity_id
        WHERE p.scopes = $1::uuid[] AND e.scopes = $1::uuid[]
          AND (p.dirty OR p.claimed_at < now() - make_interval(secs => $3::float8))
        ORDER BY p.entity_id LIMIT $2
        FOR UPDATE OF p SKIP LOCKED),
     claimed AS (
       UPDATE profile p SET dirty = false, claimed_at = now() FROM taken t WHERE p.entity_id = t.entity_id RETURNING p.entity_id)
     SELECT c.entity_id::text, e.name, e.kind, e.description,
            (SELECT coalesce(sum(m.count), 0)::int FROM mention m WHERE m.entity_id = c.entity_id) AS mentions
       FROM claimed c JOIN entity e ON e.id = c.entity_id ORDER BY c.entity_id`,
    [scopes, limit, staleSeconds],
  )
  return rows.map((r) => ({ entityId: r.entity_id, name: r.name, kind: r.kind, mentions: r.mentions, description: r.description }))
}

export interface ProfileClaim {
  entityId: string
  claimId: string
  subject: string
  predicate: string
  object: string
  weight: number
  /** Chunks that give it as evidence. */
  sources: number
  /** When it held, as its text dates it. */
  validFrom?: string | null
  validTo?: string | null
}

/** The strongest live claims (not superseded, not faded) about each entity, as subject or object. */
export async function strongestClaims(db: Queryable, scopes: readonly string[], entityIds: string[], perEntity: number): Promise<ProfileClaim[]> {
  if (entityIds.length === 0) return []
  const { rows } = await db.query<{
    entity_id: string
    id: string
    subject: string
    predicate: string
    object: string
    weight: number
    sources: number
    valid_from: string | null
    valid_to: string | null
  }>(
    `SELECT p.e::text AS entity_id, c.id::text, s.name AS subject, c.predicate, coalesce(o.name, c.object_text) AS object, c.weight, c.valid_from, c.valid_to,
            (SELECT count(*)::int FROM claim_source cs WHERE cs.claim_id = c.id) AS sources
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
  return rows.map((r) => ({
    entityId: r.entity_id,
    claimId: r.id,
    subject: r.subject,
    predicate: r.predicate,
    object: r.object,
    weight: Number(r.weight),
    sources: r.sources,
    validFrom: r.valid_from,
    validTo: r.valid_to,
  }))
}

export async function storeProfiles(
  db: Queryable,
  scopes: readonly string[],
  profiles: { entityId: string; summary: string; claimIds: string[] }[],
): Promise<void> {
  if (profiles.length === 0) return
  await db.query(
    `UPDATE profile p SET summary = u.summary, claim_ids = u.claim_ids, claimed_at = NULL, refreshed_at = now()
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
