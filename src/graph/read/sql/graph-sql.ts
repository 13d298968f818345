/** What `aizk graph` reads of a set's graph, run inside User.system(scopes) so row security bounds it. $1 is the row limit. */
export const GRAPH_TOTALS = `SELECT (SELECT count(*)::int FROM entity WHERE merged_into IS NULL) AS entities,
              (SELECT count(*)::int FROM claim WHERE subject_id IS NOT NULL) AS claims,
              (SELECT count(*)::int FROM mention) AS mentions,
              (SELECT count(*)::int FROM profile) AS profiles`

export const TOP_ENTITIES = `SELECT e.id::text, e.name, e.kind, e.scopes::text[] AS scopes, e.first_seen, e.last_seen,
              coalesce((SELECT sum(m.count) FROM mention m WHERE m.entity_id = e.id), 0)::int AS mentions
         FROM entity e WHERE e.merged_into IS NULL AND ($3::text IS NULL OR e.kind = $3)
        ORDER BY mentions DESC, e.name, e.id LIMIT $1 OFFSET $2`

export const TOP_CLAIMS = `SELECT c.id::text, s.name AS subject, c.predicate, coalesce(o.name, c.object_text) AS object, c.object_id IS NOT NULL AS object_is_entity,
              c.weight, c.faded, c.superseded_by::text, c.scopes::text[] AS scopes, c.last_reinforced,
              coalesce((SELECT json_agg(json_build_object('chunkId', cs.chunk_id, 'from', coalesce(a.filename, d.title)) ORDER BY cs.observed)
                          FROM claim_source cs JOIN chunk ch ON ch.id = cs.chunk_id
                          LEFT JOIN artifact a ON a.id = ch.artifact_id LEFT JOIN document d ON d.id = ch.document_id
                         WHERE cs.claim_id = c.id), '[]') AS sources
         FROM claim c JOIN entity s ON s.id = c.subject_id LEFT JOIN entity o ON o.id = c.object_id
        WHERE $3::text IS NULL OR s.kind = $3
        ORDER BY c.weight DESC, c.last_reinforced DESC, c.id LIMIT $1 OFFSET $2`

export const RECENT_PROFILES = `SELECT p.entity_id::text, e.name, p.scopes::text[] AS scopes, p.summary, p.claim_ids::text[] AS claim_ids, p.dirty, p.refreshed_at
         FROM profile p JOIN entity e ON e.id = p.entity_id
        WHERE $3::text IS NULL OR e.kind = $3
        ORDER BY p.refreshed_at DESC NULLS LAST, e.name, e.id LIMIT $1 OFFSET $2`
