-- Written right after aizk_write_projection, in the same statement of the projection's write
-- (a later call of a volatile function sees what the earlier one wrote), with the same keys. A
-- value already there stays: the first description of an entity is kept, and a claim keeps the
-- earliest date any chunk gave it (compared as the text gives them only when both have a year;
-- otherwise the first one stays). Security invoker: row security applies, so it touches only rows
-- of the caller's write set. Its plans are kept for the session and cannot depend on the graph's
-- size when they were made, as the write's are (aizk_write_projection_as_owner).
CREATE OR REPLACE FUNCTION aizk_annotate_projection(
    p_scopes uuid[],
    e_norm text[], e_kind text[], e_description text[],
    c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[],
    c_object_is_entity boolean[], c_text_key text[], c_description text[], c_valid_from text[])
    RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp
    SET plan_cache_mode = force_generic_plan
    SET enable_seqscan = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off
    SET jit = off AS $$
DECLARE
    ids uuid[];
    ds text[];
    vfs text[];
BEGIN
    -- Every row is found by an index key taken from the call (a table is the inner, parameterised
    -- side of a LATERAL fenced by OFFSET 0), then updated by `id = ANY(...)`: never a scan of the
    -- set's rows, whose number grows with the graph.
    SELECT array_agg(x.id), array_agg(u.d) INTO ids, ds
      FROM unnest(e_norm, e_kind, e_description) AS u(norm, kind, d)
     CROSS JOIN LATERAL (SELECT x.id FROM entity x
                          WHERE x.normalized_name = u.norm AND x.kind = u.kind AND x.scopes = p_scopes
                            AND x.merged_into IS NULL AND x.description IS NULL OFFSET 0) x
     WHERE u.d IS NOT NULL;
    IF ids IS NOT NULL THEN
        UPDATE entity e SET description = f.d
          FROM unnest(ids, ds) AS f(id, d)
         WHERE e.id = ANY(ids) AND e.id = f.id AND e.description IS NULL;
    END IF;

    SELECT array_agg(k.id), array_agg(g.d), array_agg(g.vf) INTO ids, ds, vfs
      FROM unnest(c_subject, c_subject_kind, c_predicate, c_object, c_object_kind, c_object_is_entity, c_text_key, c_description, c_valid_from)
             AS g(subj, skind, p, obj, okind, is_entity, tkey, d, vf)
     CROSS JOIN LATERAL (SELECT coalesce(x.merged_into, x.id) AS id FROM entity x
                          WHERE x.normalized_name = g.subj AND x.kind = g.skind AND x.scopes = p_scopes OFFSET 0) s
      LEFT JOIN LATERAL (SELECT coalesce(x.merged_into, x.id) AS id FROM entity x
                          WHERE g.is_entity AND x.normalized_name = g.obj AND x.kind = g.okind AND x.scopes = p_scopes OFFSET 0) o ON true
     CROSS JOIN LATERAL (SELECT c.id FROM claim c
                          WHERE c.subject_id = s.id AND c.predicate = g.p AND c.scopes = p_scopes
                            AND c.object_key = CASE WHEN g.is_entity THEN 'entity:' || o.id::text ELSE g.tkey END OFFSET 0) k
     WHERE (g.d IS NOT NULL OR g.vf IS NOT NULL) AND (NOT g.is_entity OR o.id IS NOT NULL);
    IF ids IS NOT NULL THEN
        UPDATE claim c SET
            description = coalesce(c.description, f.d),
            valid_from = CASE
                WHEN f.vf IS NULL THEN c.valid_from
                WHEN c.valid_from IS NULL THEN f.vf
                WHEN substring(f.vf FROM '(1[89]\d\d|20\d\d)') < substring(c.valid_from FROM '(1[89]\d\d|20\d\d)') THEN f.vf
                ELSE c.valid_from END
          FROM unnest(ids, ds, vfs) AS f(id, d, vf)
         WHERE c.id = ANY(ids) AND c.id = f.id
           AND ((f.d IS NOT NULL AND c.description IS NULL) OR (f.vf IS NOT NULL AND f.vf IS DISTINCT FROM c.valid_from));
    END IF;
END $$;
REVOKE ALL ON FUNCTION aizk_annotate_projection(uuid[], text[], text[], text[], text[], text[], text[], text[], text[], boolean[], text[], text[], text[])
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_annotate_projection(uuid[], text[], text[], text[], text[], text[], text[], text[], text[], boolean[], text[], text[], text[])
    TO {{app_role}};
