/**
 * SQL of one entity's page (`aizk graph entity`), on the caller's client inside
 * User.system(scopes): row security decides every row. Lookups by id use `= ANY` or `=` on uuid,
 * which reach their indexes under row security.
 */

/** Live entities by id (a merged one resolves to the entity it was merged into) or by normalized name. */
export const FIND_ENTITY = `SELECT e.id::text, e.name, e.kind, e.scopes::text[] AS scopes, e.first_seen, e.last_seen, p.summary AS description,
       coalesce((SELECT sum(m.count) FROM mention m WHERE m.entity_id = e.id), 0)::int AS mentions
  FROM entity e LEFT JOIN profile p ON p.entity_id = e.id
 WHERE e.merged_into IS NULL
   AND (e.id = (SELECT coalesce(x.merged_into, x.id) FROM entity x WHERE x.id = $1::uuid)
        OR e.normalized_name = $2::text
        OR e.id IN (SELECT x.merged_into FROM entity x WHERE x.normalized_name = $2::text AND x.merged_into IS NOT NULL))
 ORDER BY mentions DESC, e.id`

/** Names close to $1, for "did you mean". */
export const SIMILAR_NAMES = `SELECT name FROM entity WHERE merged_into IS NULL AND normalized_name % $1::text
 ORDER BY similarity(normalized_name, $1::text) DESC, name LIMIT 5`

export const ALIASES = `SELECT a.id::text, a.name, a.kind FROM entity a WHERE a.merged_into = $1::uuid ORDER BY a.name`

/** Claims out of ($2 = 'out') or into ($2 = 'in') the entity, strongest first, with their sources. */
export const ENTITY_CLAIMS = `SELECT c.id::text, s.name AS subject, c.predicate, coalesce(o.name, c.object_text) AS object, c.object_id::text,
       c.subject_id::text, c.weight, c.faded, c.superseded_by::text, c.created, c.scopes::text[] AS scopes,
       coalesce((SELECT json_agg(json_build_object('chunkId', ch.id, 'title', coalesce(d.title, a.filename), 'charStart', ch.char_start, 'charEnd', ch.char_end) ORDER BY cs.observed)
                   FROM claim_source cs JOIN chunk ch ON ch.id = cs.chunk_id
                   LEFT JOIN document d ON d.id = ch.document_id LEFT JOIN artifact a ON a.id = ch.artifact_id
                  WHERE cs.claim_id = c.id), '[]') AS sources
  FROM claim c JOIN entity s ON s.id = c.subject_id LEFT JOIN entity o ON o.id = c.object_id
 WHERE CASE WHEN $2::text = 'out' THEN c.subject_id = $1::uuid ELSE c.object_id = $1::uuid END
 ORDER BY c.weight DESC, c.created DESC, c.id LIMIT $3`

/** Entities joined to this one by live claims either way, by summed weight. */
export const NEIGHBOURS = `SELECT n.id::text, n.name, n.kind, sum(c.weight)::float8 AS weight, count(*)::int AS claims
  FROM claim c JOIN entity n ON n.id = CASE WHEN c.subject_id = $1::uuid THEN c.object_id ELSE c.subject_id END
 WHERE (c.subject_id = $1::uuid AND c.object_id IS NOT NULL OR c.object_id = $1::uuid)
   AND c.superseded_by IS NULL AND NOT c.faded AND n.id <> $1::uuid
 GROUP BY n.id, n.name, n.kind ORDER BY weight DESC, n.name LIMIT $2`

export const ENTITY_COMMUNITIES = `SELECT m.id::text, m.level, m.title, m.summary, m.size, m.scopes::text[] AS scopes
  FROM community_member cm JOIN community m ON m.id = cm.community_id
 WHERE cm.entity_id = $1::uuid ORDER BY m.level, m.size DESC`

export const MENTIONS = `SELECT m.chunk_id::text, m.count, coalesce(d.title, a.filename) AS title, ch.char_start, ch.char_end, ch.ordinal, m.scopes::text[] AS scopes
  FROM mention m JOIN chunk ch ON ch.id = m.chunk_id
  LEFT JOIN document d ON d.id = ch.document_id LEFT JOIN artifact a ON a.id = ch.artifact_id
 WHERE m.entity_id = $1::uuid ORDER BY m.count DESC, m.created, m.chunk_id LIMIT $2`
