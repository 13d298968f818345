/**
 * SQL of the dedup pass, on the caller's client inside User.system(scopes): finding duplicate
 * entities of exactly one set, and folding them into one. Every statement names the set with
 * equality, so a pass for {A,B} never merges or even reads an {A} entity.
 */
import type { Queryable } from '../../db/queryable.js'

export interface EntityStamp {
  id: string
  firstSeen: Date
}

/** Live entities of the set sharing a normalized name with another (any kind). */
export async function sameNameGroups(db: Queryable, scopes: readonly string[]): Promise<string[][]> {
  const { rows } = await db.query<{ ids: string[] }>(
    `SELECT array_agg(id::text ORDER BY id) AS ids FROM entity
      WHERE scopes = $1::uuid[] AND merged_into IS NULL
      GROUP BY normalized_name HAVING count(*) > 1`,
    [scopes],
  )
  return rows.map((r) => r.ids)
}

/**
 * Pairs of live entities of one kind whose normalized names are more similar than `threshold`
 * (pg_trgm's similarity: the Jaccard index of their trigram sets). Comparing every pair, even
 * through a trigram index, grows with the square of the set on real names, whose common trigrams
 * have long posting lists. So candidates come from prefix filtering instead: order each name's
 * trigrams rarest first; two sets with Jaccard >= t share a trigram among the first
 * n - ceil(t * n) + 1 of either, so joining on those rare trigrams finds every pair, and
 * similarity() then checks each candidate exactly.
 */
export async function similarPairs(db: Queryable, scopes: readonly string[], threshold: number): Promise<[string, string][]> {
  // Sorts and hashes here are large for a big set; give this transaction the memory for them.
  await db.query(`SELECT set_config('work_mem', '128MB', true)`)
  const { rows } = await db.query<{ a: string; b: string }>(
    `WITH live AS (
       SELECT id, kind, normalized_name, show_trgm(normalized_name) AS t
         FROM entity WHERE scopes = $1::uuid[] AND merged_into IS NULL),
     freq AS (SELECT g, count(*)::int AS f FROM live, unnest(t) AS g GROUP BY g),
     prefix AS (
       SELECT l.id, l.kind, p.g, cardinality(l.t) AS n, p.r
         FROM live l CROSS JOIN LATERAL (
           SELECT g, row_number() OVER (ORDER BY f, g) AS r FROM unnest(l.t) AS g JOIN freq USING (g)
            ORDER BY f, g LIMIT cardinality(l.t) - ceil($2::float8 * cardinality(l.t))::int + 1) p),
     candidates AS (
       -- Same kind, lengths within the threshold's ratio, and enough trigrams left after the
       -- shared one to reach the overlap the threshold needs (positional filtering).
       SELECT DISTINCT x.id AS a, y.id AS b FROM prefix x
         JOIN prefix y ON y.g = x.g AND y.kind = x.kind AND y.id > x.id
                      AND y.n >= $2::float8 * x.n AND x.n >= $2::float8 * y.n
                      AND 1 + least(x.n - x.r, y.n - y.r) >= ceil($2::float8 / (1 + $2::float8) * (x.n + y.n)))
     SELECT c.a::text AS a, c.b::text AS b
       FROM candidates c JOIN live x ON x.id = c.a JOIN live y ON y.id = c.b
      WHERE similarity(x.normalized_name, y.normalized_name) > $2::float8`,
    [scopes, threshold],
  )
  return rows.map((r) => [r.a, r.b])
}

export async function entityStamps(db: Queryable, scopes: readonly string[], ids: string[]): Promise<EntityStamp[]> {
  const { rows } = await db.query<{ id: string; first_seen: Date }>(
    `SELECT id::text, first_seen FROM entity WHERE scopes = $1::uuid[] AND id = ANY($2::uuid[])`,
    [scopes, ids],
  )
  return rows.map((r) => ({ id: r.id, firstSeen: r.first_seen }))
}

/**
 * Fold each `from` entity into its `to`: mark it merged (and repoint older merges of it), move
 * its claims (folding claims that become one: weights add, evidence joins), its mentions
 * (counts add) and drop its profile, leaving the survivor's profile dirty.
 */
export async function mergeEntities(db: Queryable, scopes: readonly string[], from: string[], to: string[]): Promise<{ claimsMoved: number; claimsFolded: number }> {
  await db.query('CREATE TEMP TABLE aizk_dedup_map (f uuid PRIMARY KEY, t uuid NOT NULL) ON COMMIT DROP')
  await db.query('INSERT INTO aizk_dedup_map SELECT * FROM unnest($1::uuid[], $2::uuid[])', [from, to])
  await db.query('ANALYZE aizk_dedup_map')
  for (const column of ['id', 'merged_into']) {
    await db.query(`UPDATE entity e SET merged_into = m.t FROM aizk_dedup_map m WHERE e.${column} = m.f AND e.scopes = $1::uuid[]`, [scopes])
  }
  await db.query(
    `UPDATE entity e SET first_seen = least(e.first_seen, x.first_seen), last_seen = greatest(e.last_seen, x.last_seen)
       FROM (SELECT m.t, min(o.first_seen) AS first_seen, max(o.last_seen) AS last_seen
               FROM aizk_dedup_map m JOIN entity o ON o.id = m.f GROUP BY m.t) x
      WHERE e.id = x.t`,
  )
  const moved = await db.query(
    `CREATE TEMP TABLE aizk_dedup_claims ON COMMIT DROP AS
     SELECT c.id, coalesce(ms.t, c.subject_id) AS subject_id, c.predicate, coalesce(mo.t, c.object_id) AS object_id,
            CASE WHEN c.object_id IS NULL THEN c.object_key ELSE 'entity:' || coalesce(mo.t, c.object_id)::text END AS object_key,
            c.created
       FROM claim c
       LEFT JOIN aizk_dedup_map ms ON ms.f = c.subject_id
       LEFT JOIN aizk_dedup_map mo ON mo.f = c.object_id
      WHERE c.scopes = $1::uuid[] AND (ms.f IS NOT NULL OR mo.f IS NOT NULL)`,
    [scopes],
  )
  await db.query('CREATE INDEX ON aizk_dedup_claims (id)')
  await db.query('ANALYZE aizk_dedup_claims')
  // Claims that now share (subject, predicate, object) fold into one survivor: an untouched
  // claim if there is one, else the oldest moved one.
  const folded = await db.query(
    `CREATE TEMP TABLE aizk_dedup_fold ON COMMIT DROP AS
     WITH keys AS (SELECT DISTINCT subject_id, predicate, object_key FROM aizk_dedup_claims),
     candidates AS (
       SELECT d.id, d.subject_id, d.predicate, d.object_key, d.created, 1 AS moved FROM aizk_dedup_claims d
       UNION ALL
       SELECT c.id, c.subject_id, c.predicate, c.object_key, c.created, 0 FROM claim c
         JOIN keys k ON c.subject_id = k.subject_id AND c.predicate = k.predicate AND c.object_key = k.object_key
        WHERE c.scopes = $1::uuid[] AND NOT EXISTS (SELECT 1 FROM aizk_dedup_claims d WHERE d.id = c.id)),
     ranked AS (
       SELECT id, first_value(id) OVER (PARTITION BY subject_id, predicate, object_key ORDER BY moved, created, id) AS survivor
         FROM candidates)
     SELECT id AS loser, survivor FROM ranked WHERE id <> survivor`,
    [scopes],
  )
  await db.query('ANALYZE aizk_dedup_fold')
  await db.query(
    `UPDATE claim s SET weight = s.weight + x.w, last_reinforced = greatest(s.last_reinforced, x.lr), faded = s.faded AND x.all_faded
       FROM (SELECT f.survivor, sum(c.weight) AS w, max(c.last_reinforced) AS lr, bool_and(c.faded) AS all_faded
               FROM aizk_dedup_fold f JOIN claim c ON c.id = f.loser GROUP BY f.survivor) x
      WHERE s.id = x.survivor`,
  )
  await db.query(
    `INSERT INTO claim_source (claim_id, chunk_id, scopes, observed)
     SELECT f.survivor, cs.chunk_id, cs.scopes, min(cs.observed) FROM aizk_dedup_fold f JOIN claim_source cs ON cs.claim_id = f.loser
      GROUP BY f.survivor, cs.chunk_id, cs.scopes
     ON CONFLICT (claim_id, chunk_id) DO NOTHING`,
  )
  await db.query('UPDATE claim c SET superseded_by = f.survivor FROM aizk_dedup_fold f WHERE c.superseded_by = f.loser')
  await db.query('DELETE FROM claim c USING aizk_dedup_fold f WHERE c.id = f.loser')
  await db.query(
    `UPDATE claim c SET subject_id = d.subject_id, object_id = d.object_id, object_key = d.object_key
       FROM aizk_dedup_claims d WHERE c.id = d.id`,
  )
  await db.query(
    `INSERT INTO mention (entity_id, chunk_id, scopes, count, created)
     SELECT m.t, x.chunk_id, x.scopes, sum(x.count), min(x.created)
       FROM mention x JOIN aizk_dedup_map m ON m.f = x.entity_id
      GROUP BY m.t, x.chunk_id, x.scopes
     ON CONFLICT (chunk_id, entity_id) DO UPDATE SET count = mention.count + excluded.count`,
  )
  await db.query('DELETE FROM mention x USING aizk_dedup_map m WHERE x.entity_id = m.f')
  await db.query('DELETE FROM profile p USING aizk_dedup_map m WHERE p.entity_id = m.f')
  await db.query(
    `INSERT INTO profile (entity_id, scopes, dirty) SELECT DISTINCT t, $1::uuid[], true FROM aizk_dedup_map
     ON CONFLICT (entity_id) DO UPDATE SET dirty = true`,
    [scopes],
  )
  await db.query('DROP TABLE aizk_dedup_fold, aizk_dedup_claims, aizk_dedup_map')
  return { claimsMoved: moved.rowCount ?? 0, claimsFolded: folded.rowCount ?? 0 }
}
