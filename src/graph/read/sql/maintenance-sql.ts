/** What `aizk graph` reads of the weekly passes' output, inside User.system(scopes). $1 is the row limit; $2 the members listed per community. */
export const COMMUNITIES_WITH_MEMBERS = `SELECT c.id::text, c.level, c.parent_id::text, c.title, c.summary, c.findings, c.reported_at, c.size, c.novelty,
              ARRAY(WITH RECURSIVE below AS (
                      SELECT c.id UNION ALL SELECT x.id FROM below b JOIN community x ON x.parent_id = b.id)
                    SELECT e.name FROM below b JOIN community_member m ON m.community_id = b.id JOIN entity e ON e.id = m.entity_id
                     ORDER BY e.name LIMIT $2) AS members
         FROM community c ORDER BY c.level DESC, c.size DESC, c.title LIMIT $1`

export const RAPTOR_LEVELS = `SELECT level, count(*)::int AS nodes, sum(cardinality(child_chunk_ids) + cardinality(child_node_ids))::int AS children,
              (array_agg(summary ORDER BY built_at, id))[1] AS sample
         FROM raptor_node GROUP BY level ORDER BY level`

export const INSIGHTS_WITH_EVIDENCE = `SELECT i.id::text, i.kind, i.title, i.created,
              coalesce((SELECT json_agg(json_build_object('claimId', c.id, 'claim', s.name || ' ' || c.predicate || ' ' || coalesce(o.name, c.object_text)))
                          FROM insight_evidence ev JOIN claim c ON c.id = ev.claim_id JOIN entity s ON s.id = c.subject_id
                          LEFT JOIN entity o ON o.id = c.object_id WHERE ev.insight_id = i.id), '[]') AS evidence
         FROM insight i ORDER BY i.created DESC, i.kind, i.title LIMIT $1`
