/**
 * SQL of recall (docs/memory-graph.md, "Reading the graph"). Every statement runs on the caller's
 * client inside User.system(readScopes): row security decides what each one sees. Candidates come
 * from aizk_recall_candidates (ids and ranks within the proven read set); everything shown is read
 * here, as the app role. Lookups by id use `= ANY`, whose uuid equality is leakproof, so they reach
 * their indexes under row security.
 */

/** The question's lexemes, and their OR as a query (a plainto_tsquery would need every word). */
/** The transaction's clock: a recall without asOf reads as of now. */
export const NOW = 'SELECT now()'

export const QUESTION_QUERY = `SELECT coalesce(string_agg(quote_literal(l), ' | '), '') AS query, coalesce(array_agg(l), '{}') AS lexemes
  FROM unnest(tsvector_to_array(to_tsvector('english', $1::text))) AS l`

export const CANDIDATES = `SELECT source, id::text, rank FROM aizk_recall_candidates($1::tsquery, $2::text[], $3::text[], $4::int)`

export const NEAREST_CHUNKS = `SELECT 'vector' AS source, id::text, rank FROM aizk_recall_nearest_chunks($1::real[], $2::int)`

/**
 * Live as the graph stood at $3 (recorded by then, not superseded by then, not faded) and, when a
 * period is asked ($7 its first day, $8 the day after it), true at some time in it: its start as
 * the text dates it before the period's end, its end after the period's start (aizk_time_bound;
 * an undated side is open).
 */
const LIVE_AT = `c.created <= $3::timestamptz AND NOT c.faded
   AND NOT EXISTS (SELECT 1 FROM claim n WHERE n.id = c.superseded_by AND n.created <= $3::timestamptz)
   AND ($7::date IS NULL OR (coalesce(aizk_time_bound(c.valid_from, false), '-infinity'::date) < $8::date
                             AND coalesce(aizk_time_bound(c.valid_to, true), 'infinity'::date) > $7::date))`

/**
 * Claims around entities ($1, at most $4 each way, strongest first) and claims by id ($2), live
 * as LIVE_AT says ($3, $7, $8), with how well each one's text matches the question: its rank against the query ($5) and
 * how many of the question's lexemes ($6) it holds.
 */
export const CLAIMS_AROUND = `WITH picked AS (
    SELECT x.id FROM unnest($1::uuid[]) AS s(eid),
      LATERAL (SELECT c.id FROM claim c WHERE c.subject_id = s.eid AND ${LIVE_AT} ORDER BY c.weight DESC, c.id LIMIT $4) x
    UNION
    SELECT x.id FROM unnest($1::uuid[]) AS s(eid),
      LATERAL (SELECT c.id FROM claim c WHERE c.object_id = s.eid AND ${LIVE_AT} ORDER BY c.weight DESC, c.id LIMIT $4) x
    UNION
    SELECT c.id FROM claim c WHERE c.id = ANY($2::uuid[]) AND c.subject_id IS NOT NULL AND ${LIVE_AT})
  SELECT c.id::text, c.subject_id::text, s.name AS subject, c.predicate, c.object_id::text, coalesce(o.name, c.object_text) AS object,
         c.weight, c.created, c.valid_from, c.valid_to, c.ended_by::text, c.last_reinforced, c.scopes::text[] AS scopes,
         ts_rank(t.doc, $5::tsquery) AS text_rank,
         (SELECT count(*) FROM unnest(tsvector_to_array(t.doc)) AS l WHERE l = ANY($6::text[]))::int AS coverage
    FROM picked p JOIN claim c ON c.id = p.id JOIN entity s ON s.id = c.subject_id LEFT JOIN entity o ON o.id = c.object_id,
         LATERAL (SELECT to_tsvector('english', s.name || ' ' || c.predicate || ' ' || coalesce(o.name, c.object_text)) AS doc) AS t`

export const CLAIM_SOURCES = `SELECT cs.claim_id::text, ch.id::text AS chunk_id, ch.document_id::text, coalesce(d.title, a.filename) AS title,
       ch.char_start, ch.char_end
  FROM claim_source cs JOIN chunk ch ON ch.id = cs.chunk_id
  LEFT JOIN document d ON d.id = ch.document_id LEFT JOIN artifact a ON a.id = ch.artifact_id
 WHERE cs.claim_id = ANY($1::uuid[])
 ORDER BY cs.observed, ch.id`

export const ENTITIES = `SELECT e.id::text, e.name, e.kind, e.scopes::text[] AS scopes, p.summary AS description,
       coalesce((SELECT array_agg(a.name ORDER BY a.name) FROM entity a WHERE a.merged_into = e.id), '{}') AS aliases,
       coalesce((SELECT sum(m.count) FROM mention m WHERE m.entity_id = e.id), 0)::int AS mentions
  FROM entity e LEFT JOIN profile p ON p.entity_id = e.id
 WHERE e.id = ANY($1::uuid[]) AND e.merged_into IS NULL`

/** Communities holding any of the entities $1, or found by their own text ($2); the members among $1. */
export const COMMUNITIES = `SELECT m.id::text, m.level, m.title, m.summary, m.size, m.scopes::text[] AS scopes,
       coalesce(array_agg(cm.entity_id::text) FILTER (WHERE cm.entity_id IS NOT NULL), '{}') AS members
  FROM community m LEFT JOIN community_member cm ON cm.community_id = m.id AND cm.entity_id = ANY($1::uuid[])
 WHERE m.id IN (SELECT community_id FROM community_member WHERE entity_id = ANY($1::uuid[])) OR m.id = ANY($2::uuid[])
 GROUP BY m.id`

export const CHUNKS = `SELECT ch.id::text, ch.document_id::text, coalesce(d.title, a.filename) AS title, ch.char_start, ch.char_end, ch.text,
       ch.scopes::text[] AS scopes
  FROM chunk ch LEFT JOIN document d ON d.id = ch.document_id LEFT JOIN artifact a ON a.id = ch.artifact_id
 WHERE ch.id = ANY($1::uuid[])`

/** The lexemes of each form ($1, in order); a stop word has none. */
export const FORM_LEXEMES = `SELECT coalesce(array(SELECT DISTINCT l FROM unnest(tsvector_to_array(to_tsvector('english', f))) AS l ORDER BY l), '{}') AS lexemes
  FROM unnest($1::text[]) WITH ORDINALITY AS x(f, n) ORDER BY n`

/** How many of the reader's chunks hold each lexeme ($1), up to $2: the floor's weights. */
export const LEXEME_CHUNKS = `SELECT lexeme, chunks FROM aizk_recall_lexeme_chunks($1::text[], $2::int)`

/** For each text ($1, in order), where it holds each of the question's lexemes ($2): word positions by lexeme. Values only: no table is read. */
export const LEXEME_POSITIONS = `SELECT coalesce((SELECT jsonb_object_agg(v.lexeme, v.positions) FROM unnest(to_tsvector('english', t)) AS v WHERE v.lexeme = ANY($2::text[])), '{}') AS held
  FROM unnest($1::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n`
