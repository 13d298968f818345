/**
 * SQL on `claim` and its evidence (`claim_source`), on the caller's client. A claim is one
 * (subject, predicate, object) of a scope set; each chunk that observed it is a claim_source
 * row. Observing an existing claim from a new chunk reinforces it: its weight is first decayed
 * to now, then one is added (mem0-style reinforcement, consistent with the decay pass).
 */
import type { Queryable } from '../../db/queryable.js'

export interface ClaimRow {
  subjectId: string
  predicate: string
  objectId: string | null
  objectText: string | null
}

export function objectKey(c: Pick<ClaimRow, 'objectId' | 'objectText'>): string {
  return c.objectId ? `entity:${c.objectId}` : `text:${(c.objectText ?? '').toLowerCase()}`
}

/** Predicates that contradict each other: "use" and "not use". */
export function oppositePredicate(predicate: string): string {
  return predicate.startsWith('not ') ? predicate.slice(4) : `not ${predicate}`
}

/**
 * Record that `chunkId` observed these claims. Returns every claim id the chunk now supports
 * and the ids it observed for the first time (only those reinforce and supersede).
 */
export async function observeClaims(
  db: Queryable,
  scopes: readonly string[],
  chunkId: string,
  claims: ClaimRow[],
  halfLifeDays: number,
): Promise<{ all: string[]; fresh: string[] }> {
  if (claims.length === 0) return { all: [], fresh: [] }
  const sorted = [...claims].sort((a, b) => `${a.subjectId} ${a.predicate} ${objectKey(a)}`.localeCompare(`${b.subjectId} ${b.predicate} ${objectKey(b)}`))
  const { rows } = await db.query<{ id: string; fresh: boolean }>(
    `WITH upserted AS (
       INSERT INTO claim AS c (scopes, subject_id, predicate, object_id, object_text, object_key, source_chunk_id)
       SELECT $1::uuid[], u.s, u.p, u.oid, u.otext, u.okey, $2::uuid
         FROM unnest($3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::text[]) WITH ORDINALITY AS u(s, p, oid, otext, okey, n)
        ORDER BY u.n
       ON CONFLICT (scopes, subject_id, predicate, object_key) WHERE subject_id IS NOT NULL DO UPDATE SET
         weight = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id AND cs.chunk_id = $2::uuid) THEN c.weight
                       ELSE c.weight * power(0.5, greatest(extract(epoch FROM now() - c.last_decayed), 0) / ($8::float8 * 86400)) + 1 END,
         last_decayed = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id AND cs.chunk_id = $2::uuid) THEN c.last_decayed ELSE now() END,
         last_reinforced = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id AND cs.chunk_id = $2::uuid) THEN c.last_reinforced ELSE now() END,
         faded = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id AND cs.chunk_id = $2::uuid) THEN c.faded ELSE false END
       RETURNING c.id),
     evidence AS (
       INSERT INTO claim_source (claim_id, chunk_id, scopes)
       SELECT id, $2::uuid, $1::uuid[] FROM upserted
       ON CONFLICT (claim_id, chunk_id) DO NOTHING
       RETURNING claim_id)
     SELECT u.id::text AS id, (e.claim_id IS NOT NULL) AS fresh FROM upserted u LEFT JOIN evidence e ON e.claim_id = u.id`,
    [
      scopes,
      chunkId,
      sorted.map((c) => c.subjectId),
      sorted.map((c) => c.predicate),
      sorted.map((c) => c.objectId),
      sorted.map((c) => (c.objectId ? null : c.objectText)),
      sorted.map(objectKey),
      halfLifeDays,
    ],
  )
  return { all: rows.map((r) => r.id), fresh: rows.filter((r) => r.fresh).map((r) => r.id) }
}

/**
 * A newly observed claim supersedes the live claim of the opposite polarity on the same subject
 * and object ("X uses Y" then "X does not use Y"): the older one is kept, marked superseded.
 * Re-observing the superseded side revives it and supersedes the other in turn.
 */
export async function supersedeOpposites(db: Queryable, scopes: readonly string[], claimIds: string[]): Promise<number> {
  if (claimIds.length === 0) return 0
  await db.query(`UPDATE claim SET superseded_by = NULL WHERE id = ANY($1::uuid[]) AND superseded_by IS NOT NULL AND scopes = $2::uuid[]`, [
    claimIds,
    scopes,
  ])
  const res = await db.query(
    `UPDATE claim old SET superseded_by = n.id
       FROM claim n
      WHERE n.id = ANY($1::uuid[]) AND old.scopes = $2::uuid[] AND n.scopes = $2::uuid[]
        AND old.subject_id = n.subject_id AND old.object_key = n.object_key AND old.id <> n.id
        AND old.predicate = CASE WHEN n.predicate LIKE 'not %' THEN substr(n.predicate, 5) ELSE 'not ' || n.predicate END
        AND old.superseded_by IS DISTINCT FROM n.id`,
    [claimIds, scopes],
  )
  return res.rowCount ?? 0
}

/**
 * Withdraw this chunk's evidence from every claim it no longer supports: each loses the one it
 * added (never below zero), and a claim left with no evidence at all is deleted. Returns the
 * subjects and objects touched, whose profiles must be rebuilt.
 */
export async function retractEvidence(db: Queryable, scopes: readonly string[], chunkId: string, keep: string[]): Promise<string[]> {
  const gone = await db.query<{ claim_id: string }>(
    `DELETE FROM claim_source WHERE chunk_id = $1 AND scopes = $2::uuid[] AND NOT (claim_id = ANY($3::uuid[]))
     RETURNING claim_id::text AS claim_id`,
    [chunkId, scopes, keep],
  )
  if (gone.rows.length === 0) return []
  const ids = gone.rows.map((r) => r.claim_id)
  const touched = await db.query<{ subject_id: string; object_id: string | null }>(
    `UPDATE claim SET weight = greatest(weight - 1, 0),
            source_chunk_id = CASE WHEN source_chunk_id = $2 THEN
              (SELECT cs.chunk_id FROM claim_source cs WHERE cs.claim_id = claim.id ORDER BY cs.observed LIMIT 1) ELSE source_chunk_id END
      WHERE id = ANY($1::uuid[])
      RETURNING subject_id::text, object_id::text`,
    [ids, chunkId],
  )
  await db.query(
    `DELETE FROM claim c WHERE c.id = ANY($1::uuid[]) AND NOT EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id)`,
    [ids],
  )
  return touched.rows.flatMap((r) => (r.object_id ? [r.subject_id, r.object_id] : [r.subject_id]))
}
