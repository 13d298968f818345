-- The body of aizk_write_projection, run as the owner once the wrapper has checked the caller's
-- chunk and write set (docs/memory-graph.md). Its plans are made once per session and kept, so
-- they must not depend on how big the graph was when they were made: every statement reads a
-- table only by an index key taken from the call's arrays or ids (joins are LATERAL subqueries
-- fenced by OFFSET 0, updates of a set of rows are keyed by `id = ANY(...)`), sequential scans,
-- hash and merge joins are off for the call, and JIT is off.
-- Evidence counts distinct sources (docs/memory-graph.md, "Reinforcement, supersession, decay"):
-- neighbouring chunks of one document overlap, so a claim is reinforced by a chunk only when no
-- chunk of the same source (artifact or document) had observed it yet, and withdrawing a chunk's
-- evidence lowers the weight only when no chunk of that source still gives it.
-- Its earlier signature, without the entities' descriptions.
DROP FUNCTION IF EXISTS aizk_write_projection_as_owner(uuid[], uuid, double precision, text[], text[], text[], integer[], text[], text[], text[], text[], text[], boolean[], text[]);
CREATE OR REPLACE FUNCTION aizk_write_projection_as_owner(p_scopes uuid[], p_chunk uuid, p_half_life double precision, e_name text[], e_norm text[], e_kind text[], e_mentions integer[], e_description text[], c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[], c_object_is_entity boolean[], c_text_key text[], OUT entities integer, OUT claims integer, OUT mentions integer)
 RETURNS record
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET jit TO 'off'
AS $function$
DECLARE
    id_norm text[];
    id_kind text[];
    id_id uuid[];
    ent_ids uuid[];
    ent_counts int[];
    all_ids uuid[];
    fresh_ids uuid[];
    gone uuid[];
    touched uuid[] := '{}';
    revive uuid[];
    sup_old uuid[];
    sup_new uuid[];
    p_source uuid;
BEGIN
    -- The job is marked done only by a later durable commit, which flushes this too.
    PERFORM set_config('synchronous_commit', 'off', true);
    -- The chunk's source (its artifact or document): chunks of one source are one observation.
    SELECT coalesce(k.artifact_id, k.document_id) INTO p_source FROM chunk k WHERE k.id = p_chunk;
    -- Entities: the missing ones created in the caller's order, with their description (a later
    -- update would write every index of the row again), then every id read by its key (a
    -- merged entity answers with its survivor). Existing rows are read, not upserted, so a common
    -- entity is never locked until commit.
    INSERT INTO entity (scopes, name, normalized_name, kind, description)
    SELECT p_scopes, u.name, u.norm, u.kind, u.d
      FROM unnest(e_name, e_norm, e_kind, e_description) WITH ORDINALITY AS u(name, norm, kind, d, n)
     ORDER BY u.n
    ON CONFLICT (scopes, kind, normalized_name) DO NOTHING;
    SELECT array_agg(u.norm), array_agg(u.kind), array_agg(e.id)
      INTO id_norm, id_kind, id_id
      FROM unnest(e_norm, e_kind) AS u(norm, kind)
     CROSS JOIN LATERAL (SELECT coalesce(x.merged_into, x.id) AS id FROM entity x
                          WHERE x.normalized_name = u.norm AND x.kind = u.kind AND x.scopes = p_scopes OFFSET 0) e;
    id_norm := coalesce(id_norm, '{}');
    id_kind := coalesce(id_kind, '{}');
    id_id := coalesce(id_id, '{}');
    -- last_seen moves at most once a minute per entity, for the same reason.
    UPDATE entity SET last_seen = now() WHERE id = ANY(id_id) AND last_seen < now() - interval '1 minute';
    SELECT array_agg(x.id ORDER BY x.id), array_agg(x.c ORDER BY x.id) INTO ent_ids, ent_counts
      FROM (SELECT i.id, sum(u.m)::int AS c
              FROM unnest(e_norm, e_kind, e_mentions) AS u(norm, kind, m)
              JOIN unnest(id_norm, id_kind, id_id) AS i(norm, kind, id) ON i.norm = u.norm AND i.kind = u.kind
             GROUP BY i.id) x;
    ent_ids := coalesce(ent_ids, '{}');
    ent_counts := coalesce(ent_counts, '{}');
    entities := cardinality(ent_ids);

    -- Claims: each (subject, predicate, object) observed once; an existing one that neither this
    -- chunk nor another chunk of its source had observed is decayed to now and reinforced by one;
    -- evidence is one row per (claim, chunk).
    WITH resolved AS (
        SELECT s.id AS sid, u.p, o.id AS oid, CASE WHEN u.is_entity THEN NULL ELSE u.obj END AS otext,
               CASE WHEN u.is_entity THEN 'entity:' || o.id::text ELSE u.tkey END AS okey, u.n
          FROM unnest(c_subject, c_subject_kind, c_predicate, c_object, c_object_kind, c_object_is_entity, c_text_key)
                 WITH ORDINALITY AS u(subj, skind, p, obj, okind, is_entity, tkey, n)
          JOIN unnest(id_norm, id_kind, id_id) AS s(norm, kind, id) ON s.norm = u.subj AND s.kind = u.skind
          LEFT JOIN unnest(id_norm, id_kind, id_id) AS o(norm, kind, id) ON u.is_entity AND o.norm = u.obj AND o.kind = u.okind
         WHERE NOT u.is_entity OR o.id IS NOT NULL),
    wanted AS (SELECT DISTINCT ON (sid, p, okey) sid, p, oid, otext, okey FROM resolved ORDER BY sid, p, okey, n DESC),
    upserted AS (
        INSERT INTO claim AS c (scopes, subject_id, predicate, object_id, object_text, object_key, source_chunk_id)
        SELECT p_scopes, w.sid, w.p, w.oid, w.otext, w.okey, p_chunk FROM wanted w ORDER BY w.sid, w.p, w.okey
        ON CONFLICT (scopes, subject_id, predicate, object_key) WHERE subject_id IS NOT NULL DO UPDATE SET
          weight = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs CROSS JOIN LATERAL (SELECT coalesce(k.artifact_id, k.document_id) AS src FROM chunk k WHERE k.id = cs.chunk_id OFFSET 0) k WHERE cs.claim_id = c.id AND (cs.chunk_id = p_chunk OR k.src = p_source)) THEN c.weight
                        ELSE c.weight * power(0.5, greatest(extract(epoch FROM now() - c.last_decayed), 0) / (p_half_life * 86400)) + 1 END,
          last_decayed = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs CROSS JOIN LATERAL (SELECT coalesce(k.artifact_id, k.document_id) AS src FROM chunk k WHERE k.id = cs.chunk_id OFFSET 0) k WHERE cs.claim_id = c.id AND (cs.chunk_id = p_chunk OR k.src = p_source)) THEN c.last_decayed ELSE now() END,
          last_reinforced = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs CROSS JOIN LATERAL (SELECT coalesce(k.artifact_id, k.document_id) AS src FROM chunk k WHERE k.id = cs.chunk_id OFFSET 0) k WHERE cs.claim_id = c.id AND (cs.chunk_id = p_chunk OR k.src = p_source)) THEN c.last_reinforced ELSE now() END,
          faded = CASE WHEN EXISTS (SELECT 1 FROM claim_source cs CROSS JOIN LATERAL (SELECT coalesce(k.artifact_id, k.document_id) AS src FROM chunk k WHERE k.id = cs.chunk_id OFFSET 0) k WHERE cs.claim_id = c.id AND (cs.chunk_id = p_chunk OR k.src = p_source)) THEN c.faded ELSE false END
        RETURNING c.id),
    evidence AS (
        INSERT INTO claim_source (claim_id, chunk_id, scopes)
        SELECT id, p_chunk, p_scopes FROM upserted
        ON CONFLICT (claim_id, chunk_id) DO NOTHING
        RETURNING claim_id)
    SELECT coalesce(array_agg(u.id), '{}'), coalesce(array_agg(u.id) FILTER (WHERE e.claim_id IS NOT NULL), '{}')
      INTO all_ids, fresh_ids
      FROM upserted u LEFT JOIN evidence e ON e.claim_id = u.id;
    claims := cardinality(all_ids);

    -- A newly observed claim supersedes the live claim of opposite polarity on the same subject and
    -- object, and is itself revived if it had been superseded. Read first (the fresh claims by id,
    -- each one's opposite by (subject, object)), then written by id: the outcome of reviving first,
    -- then superseding, where a fresh opposite counts as revived.
    IF cardinality(fresh_ids) > 0 THEN
        SELECT array_agg(DISTINCT n.id) FILTER (WHERE n.superseded_by IS NOT NULL),
               array_agg(o.id) FILTER (WHERE o.id IS NOT NULL), array_agg(n.id) FILTER (WHERE o.id IS NOT NULL)
          INTO revive, sup_old, sup_new
          FROM (SELECT id, superseded_by, subject_id, object_key,
                       CASE WHEN predicate LIKE 'not %' THEN substr(predicate, 5) ELSE 'not ' || predicate END AS opposite
                  FROM claim WHERE id = ANY(fresh_ids) AND scopes = p_scopes OFFSET 0) n
          LEFT JOIN LATERAL (
               SELECT o.id FROM claim o
                WHERE o.subject_id = n.subject_id AND o.object_key = n.object_key AND o.predicate = n.opposite
                  AND o.id <> n.id AND o.scopes = p_scopes
                  AND (o.id = ANY(fresh_ids) OR o.superseded_by IS DISTINCT FROM n.id)
               OFFSET 0) o ON true;
        IF revive IS NOT NULL THEN
            UPDATE claim SET superseded_by = NULL WHERE id = ANY(revive) AND scopes = p_scopes;
        END IF;
        IF sup_old IS NOT NULL THEN
            UPDATE claim SET superseded_by = sup_new[array_position(sup_old, id)] WHERE id = ANY(sup_old) AND scopes = p_scopes;
        END IF;
    END IF;

    -- Evidence this chunk no longer gives is withdrawn: each claim loses the one it added, unless
    -- another chunk of the same source still gives it; a claim left with no evidence is deleted.
    WITH d AS (
        DELETE FROM claim_source WHERE chunk_id = p_chunk AND scopes = p_scopes AND NOT (claim_id = ANY(all_ids))
        RETURNING claim_id)
    SELECT coalesce(array_agg(claim_id), '{}') INTO gone FROM d;
    IF cardinality(gone) > 0 THEN
        WITH t AS (
            UPDATE claim SET weight = CASE WHEN EXISTS (
                       SELECT 1 FROM claim_source cs CROSS JOIN LATERAL (SELECT coalesce(k.artifact_id, k.document_id) AS src FROM chunk k WHERE k.id = cs.chunk_id OFFSET 0) k
                        WHERE cs.claim_id = claim.id AND k.src = p_source) THEN weight ELSE greatest(weight - 1, 0) END,
                   source_chunk_id = CASE WHEN source_chunk_id = p_chunk THEN
                     (SELECT cs.chunk_id FROM claim_source cs WHERE cs.claim_id = claim.id ORDER BY cs.observed LIMIT 1) ELSE source_chunk_id END
             WHERE id = ANY(gone)
            RETURNING subject_id, object_id)
        SELECT coalesce(array_agg(v.x), '{}') INTO touched
          FROM t CROSS JOIN LATERAL (VALUES (t.subject_id), (t.object_id)) AS v(x) WHERE v.x IS NOT NULL;
        DELETE FROM claim c WHERE c.id = ANY(gone) AND NOT EXISTS (SELECT 1 FROM claim_source cs WHERE cs.claim_id = c.id);
    END IF;

    -- Mentions: replaced by this chunk's.
    DELETE FROM mention WHERE chunk_id = p_chunk AND scopes = p_scopes;
    INSERT INTO mention (entity_id, chunk_id, scopes, count)
    SELECT u.e, p_chunk, p_scopes, u.c FROM unnest(ent_ids, ent_counts) AS u(e, c) ORDER BY u.e;
    GET DIAGNOSTICS mentions = ROW_COUNT;

    -- Profiles of every entity named or withdrawn from: dirty, created when missing; one already
    -- dirty is left alone and unlocked.
    touched := ARRAY(SELECT DISTINCT x FROM unnest(ent_ids || touched) AS x ORDER BY x);
    IF cardinality(touched) > 0 THEN
        INSERT INTO profile (entity_id, scopes, dirty) SELECT e, p_scopes, true FROM unnest(touched) AS e
        ON CONFLICT (entity_id) DO NOTHING;
        UPDATE profile SET dirty = true WHERE entity_id = ANY(touched) AND scopes = p_scopes AND NOT dirty;
    END IF;

    -- Never a no-op update on a re-run: it could not be HOT (projection_status is in an index's
    -- predicate), so it would write the chunk's row and every one of its indexes again, the text
    -- search index's to_tsvector of the whole text among them.
    UPDATE chunk SET projection_status = 'projected' WHERE id = p_chunk AND projection_status <> 'projected';
END $function$;
REVOKE ALL ON FUNCTION aizk_write_projection_as_owner(p_scopes uuid[], p_chunk uuid, p_half_life double precision, e_name text[], e_norm text[], e_kind text[], e_mentions integer[], e_description text[], c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[], c_object_is_entity boolean[], c_text_key text[]) FROM PUBLIC;
