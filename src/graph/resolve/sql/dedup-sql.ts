/**
 * SQL of the dedup pass, on the caller's client inside User.system(scopes): finding duplicate
 * entities of exactly one set, and folding them into one. Every statement names the set with
 * equality, so a pass for {A,B} never merges or even reads an {A} entity.
 */
import type { Queryable } from '../../../db/queryable.js'
import { WHITE_SPACE } from '../acronym-definitions.js'
import type { MergeRule } from '../find-merges.js'
import type { NameTrigrams } from '../similar-names.js'
import { RECORD_BEFORE_MERGE, RECORD_FOLDED_CLAIMS, WRITE_MERGE_RECORDS } from './merge-record-sql.js'

export interface EntityStamp {
  id: string
  name: string
  kind: string
  firstSeen: Date
  mentions: number
}

/** One entity folded into another, for the rule that matched them, the survivor shown as `keptName`. */
export interface PlannedMerge {
  from: string
  into: string
  rule: MergeRule
  score: number
  keptName: string
}

/**
 * Every live entity of the set with its kind and its name's trigrams, as pg_trgm makes them.
 * Joined by U+0001, which no trigram holds (pg_trgm keeps letters, digits and spaces, and writes
 * any other trigram as hex): splitting a string costs far less than parsing a text[] per row.
 */
/** Each live entity's trigrams as pg_trgm makes them, with its normalized name. */
export async function nameTrigrams(db: Queryable, scopes: readonly string[]): Promise<(NameTrigrams & { name: string })[]> {
  const { rows } = await db.query<{ id: string; kind: string; name: string; trigrams: string }>(
    `SELECT id::text, kind, normalized_name AS name, array_to_string(show_trgm(normalized_name), chr(1)) AS trigrams
       FROM entity WHERE scopes = $1::uuid[] AND merged_into IS NULL`,
    [scopes],
  )
  return rows.map((r) => ({ id: r.id, kind: r.kind, name: r.name, trigrams: r.trigrams === '' ? [] : r.trigrams.split('\u0001') }))
}

/**
 * The pairs [a, b] among `pairs` whose entities x (a) and y (b), both of the set ($1), pass
 * `condition`; `extra` are its parameters from $4 on.
 */
async function pairsWhere(
  db: Queryable,
  scopes: readonly string[],
  pairs: [string, string][],
  condition: string,
  extra: unknown[],
): Promise<[string, string][]> {
  if (pairs.length === 0) return []
  const { rows } = await db.query<{ a: string; b: string }>(
    `SELECT x.id::text AS a, y.id::text AS b
       FROM unnest($2::uuid[], $3::uuid[]) AS p(a, b)
       JOIN entity x ON x.id = p.a AND x.scopes = $1::uuid[]
       JOIN entity y ON y.id = p.b AND y.scopes = $1::uuid[]
      WHERE ${condition}`,
    [scopes, pairs.map((p) => p[0]), pairs.map((p) => p[1]), ...extra],
  )
  return rows.map((r) => [r.a, r.b])
}

/** The pairs among `pairs` whose names' pg_trgm similarity is above `threshold`: pg_trgm has the last word. */
export function confirmSimilar(db: Queryable, scopes: readonly string[], pairs: [string, string][], threshold: number): Promise<[string, string][]> {
  return pairsWhere(db, scopes, pairs, 'x.kind = y.kind AND similarity(x.normalized_name, y.normalized_name) > $4::float8', [threshold])
}

/**
 * The pairs [acronym id, expansion id] among `pairs` that a chunk of the set mentioning the
 * acronym defines with a parenthesis, "free software (fs)" or "fs (free software)", compared as
 * acronym-definitions.ts's definesAcronym compares them: lower case, white space folded to one space.
 */
export function definedAcronyms(db: Queryable, scopes: readonly string[], pairs: [string, string][]): Promise<[string, string][]> {
  return pairsWhere(
    db,
    scopes,
    pairs,
    `EXISTS (
        SELECT 1 FROM mention m JOIN chunk c ON c.id = m.chunk_id AND c.scopes = $1::uuid[]
         CROSS JOIN LATERAL (SELECT regexp_replace(lower(c.text), $4, ' ', 'g') AS folded) t
         WHERE m.entity_id = x.id AND m.scopes = $1::uuid[]
           AND (strpos(t.folded, y.normalized_name || ' (' || x.normalized_name || ')') > 0
             OR strpos(t.folded, x.normalized_name || ' (' || y.normalized_name || ')') > 0))`,
    [WHITE_SPACE],
  )
}

export async function entityStamps(db: Queryable, scopes: readonly string[], ids: string[]): Promise<EntityStamp[]> {
  const { rows } = await db.query<{ id: string; name: string; kind: string; first_seen: Date; mentions: number }>(
    `SELECT e.id::text, e.name, e.kind, e.first_seen, (SELECT coalesce(sum(m.count), 0)::int FROM mention m WHERE m.entity_id = e.id) AS mentions
       FROM entity e WHERE e.scopes = $1::uuid[] AND e.id = ANY($2::uuid[])`,
    [scopes, ids],
  )
  return rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind, firstSeen: r.first_seen, mentions: r.mentions }))
}

/**
 * Fold each `from` entity into its `to`: mark it merged (and repoint older merges of it), move
 * its claims (folding claims that become one: weights add, evidence joins), its mentions
 * (counts add) and drop its profile, leaving the survivor's profile dirty.
 */
export async function mergeEntities(
  db: Queryable,
  scopes: readonly string[],
  merges: readonly PlannedMerge[],
): Promise<{ claimsMoved: number; claimsFolded: number }> {
  // Named with pg_temp.: a table of the same name elsewhere on the search path never stands in.
  await db.query(
    'CREATE TEMP TABLE pg_temp.aizk_dedup_map (f uuid PRIMARY KEY, t uuid NOT NULL, rule text NOT NULL, score float8 NOT NULL, kept text NOT NULL) ON COMMIT DROP',
  )
  await db.query('INSERT INTO pg_temp.aizk_dedup_map SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::float8[], $5::text[])', [
    merges.map((m) => m.from),
    merges.map((m) => m.into),
    merges.map((m) => m.rule),
    merges.map((m) => m.score),
    merges.map((m) => m.keptName),
  ])
  await db.query('ANALYZE pg_temp.aizk_dedup_map')
  await db.query(RECORD_BEFORE_MERGE, [scopes])
  for (const column of ['id', 'merged_into']) {
    await db.query(`UPDATE entity e SET merged_into = m.t FROM pg_temp.aizk_dedup_map m WHERE e.${column} = m.f AND e.scopes = $1::uuid[]`, [scopes])
  }
  await db.query(
    `UPDATE entity e SET first_seen = least(e.first_seen, x.first_seen), last_seen = greatest(e.last_seen, x.last_seen)
       FROM (SELECT m.t, min(o.first_seen) AS first_seen, max(o.last_seen) AS last_seen
               FROM pg_temp.aizk_dedup_map m JOIN entity o ON o.id = m.f GROUP BY m.t) x
      WHERE e.id = x.t`,
  )
  const moved = await db.query(
    `CREATE TEMP TABLE pg_temp.aizk_dedup_claims ON COMMIT DROP AS
     SELECT c.id, coalesce(ms.t, c.subject_id) AS subject_id, c.predicate, coalesce(mo.t, c.object_id) AS object_id,
            CASE WHEN c.object_id IS NULL THEN c.object_key ELSE 'entity:' || coalesce(mo.t, c.object_id)::text END AS object_key,
            c.created
       FROM claim c
       LEFT JOIN pg_temp.aizk_dedup_map ms ON ms.f = c.subject_id
       LEFT JOIN pg_temp.aizk_dedup_map mo ON mo.f = c.object_id
      WHERE c.scopes = $1::uuid[] AND (ms.f IS NOT NULL OR mo.f IS NOT NULL)`,
    [scopes],
  )
  await db.query('CREATE INDEX ON pg_temp.aizk_dedup_claims (id)')
  await db.query('ANALYZE pg_temp.aizk_dedup_claims')
  // Claims that now share (subject, predicate, object) fold into one survivor: an untouched
  // claim if there is one, else the oldest moved one.
  const folded = await db.query(
    `CREATE TEMP TABLE pg_temp.aizk_dedup_fold ON COMMIT DROP AS
     WITH keys AS (SELECT DISTINCT subject_id, predicate, object_key FROM pg_temp.aizk_dedup_claims),
     candidates AS (
       SELECT d.id, d.subject_id, d.predicate, d.object_key, d.created, 1 AS moved FROM pg_temp.aizk_dedup_claims d
       UNION ALL
       SELECT c.id, c.subject_id, c.predicate, c.object_key, c.created, 0 FROM claim c
         JOIN keys k ON c.subject_id = k.subject_id AND c.predicate = k.predicate AND c.object_key = k.object_key
        WHERE c.scopes = $1::uuid[] AND NOT EXISTS (SELECT 1 FROM pg_temp.aizk_dedup_claims d WHERE d.id = c.id)),
     ranked AS (
       SELECT id, first_value(id) OVER (PARTITION BY subject_id, predicate, object_key ORDER BY moved, created, id) AS survivor
         FROM candidates)
     SELECT id AS loser, survivor FROM ranked WHERE id <> survivor`,
    [scopes],
  )
  await db.query('ANALYZE pg_temp.aizk_dedup_fold')
  await db.query(RECORD_FOLDED_CLAIMS)
  await db.query(
    `UPDATE claim s SET weight = s.weight + x.w, last_reinforced = greatest(s.last_reinforced, x.lr), faded = s.faded AND x.all_faded
       FROM (SELECT f.survivor, sum(c.weight) AS w, max(c.last_reinforced) AS lr, bool_and(c.faded) AS all_faded
               FROM pg_temp.aizk_dedup_fold f JOIN claim c ON c.id = f.loser GROUP BY f.survivor) x
      WHERE s.id = x.survivor`,
  )
  await db.query(
    `INSERT INTO claim_source (claim_id, chunk_id, scopes, observed)
     SELECT f.survivor, cs.chunk_id, cs.scopes, min(cs.observed) FROM pg_temp.aizk_dedup_fold f JOIN claim_source cs ON cs.claim_id = f.loser
      GROUP BY f.survivor, cs.chunk_id, cs.scopes
     ON CONFLICT (claim_id, chunk_id) DO NOTHING`,
  )
  await db.query('UPDATE claim c SET superseded_by = f.survivor FROM pg_temp.aizk_dedup_fold f WHERE c.superseded_by = f.loser')
  await db.query('DELETE FROM claim c USING pg_temp.aizk_dedup_fold f WHERE c.id = f.loser')
  await db.query(
    `UPDATE claim c SET subject_id = d.subject_id, object_id = d.object_id, object_key = d.object_key
       FROM pg_temp.aizk_dedup_claims d WHERE c.id = d.id`,
  )
  await db.query(
    `INSERT INTO mention (entity_id, chunk_id, scopes, count, created)
     SELECT m.t, x.chunk_id, x.scopes, sum(x.count), min(x.created)
       FROM mention x JOIN pg_temp.aizk_dedup_map m ON m.f = x.entity_id
      GROUP BY m.t, x.chunk_id, x.scopes
     ON CONFLICT (chunk_id, entity_id) DO UPDATE SET count = mention.count + excluded.count`,
  )
  await db.query('DELETE FROM mention x USING pg_temp.aizk_dedup_map m WHERE x.entity_id = m.f')
  await db.query('DELETE FROM profile p USING pg_temp.aizk_dedup_map m WHERE p.entity_id = m.f')
  await db.query(
    `INSERT INTO profile (entity_id, scopes, dirty) SELECT DISTINCT t, $1::uuid[], true FROM pg_temp.aizk_dedup_map
     ON CONFLICT (entity_id) DO UPDATE SET dirty = true`,
    [scopes],
  )
  await db.query(WRITE_MERGE_RECORDS, [scopes])
  await db.query('UPDATE entity e SET name = m.kept FROM (SELECT DISTINCT t, kept FROM pg_temp.aizk_dedup_map) m WHERE e.id = m.t AND e.scopes = $1::uuid[]', [
    scopes,
  ])
  await db.query('DROP TABLE pg_temp.aizk_dedup_fold, pg_temp.aizk_dedup_claims, pg_temp.aizk_dedup_map, pg_temp.aizk_dedup_undo')
  return { claimsMoved: moved.rowCount ?? 0, claimsFolded: folded.rowCount ?? 0 }
}
