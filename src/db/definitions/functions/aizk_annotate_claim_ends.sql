-- When claims stopped being true, as a chunk's text dates it ("until March 1998"), written right
-- after aizk_annotate_projection in the projection's one statement, with the same claim keys
-- (docs/memory-graph.md, "Time on every fact"). Beside that function rather than a new argument
-- of it, so a worker of 0.1.0 keeps calling the one it knows. The latest end any chunk gave
-- wins (compared by aizk_time_bound); an end the insight pass derived from a later value
-- (`ended_by` set) gives way to one the text states. Security invoker: row security applies, and
-- its plans follow the write's rules (aizk_write_projection_as_owner).
-- aizk:requires functions/aizk_time_bound
CREATE OR REPLACE FUNCTION aizk_annotate_claim_ends(
    p_scopes uuid[],
    c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[],
    c_object_is_entity boolean[], c_text_key text[], c_valid_to text[])
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
    vts text[];
BEGIN
    SELECT array_agg(k.id), array_agg(g.vt) INTO ids, vts
      FROM unnest(c_subject, c_subject_kind, c_predicate, c_object, c_object_kind, c_object_is_entity, c_text_key, c_valid_to)
             AS g(subj, skind, p, obj, okind, is_entity, tkey, vt)
     CROSS JOIN LATERAL (SELECT coalesce(x.merged_into, x.id) AS id FROM entity x
                          WHERE x.normalized_name = g.subj AND x.kind = g.skind AND x.scopes = p_scopes OFFSET 0) s
      LEFT JOIN LATERAL (SELECT coalesce(x.merged_into, x.id) AS id FROM entity x
                          WHERE g.is_entity AND x.normalized_name = g.obj AND x.kind = g.okind AND x.scopes = p_scopes OFFSET 0) o ON true
     CROSS JOIN LATERAL (SELECT c.id FROM claim c
                          WHERE c.subject_id = s.id AND c.predicate = g.p AND c.scopes = p_scopes
                            AND c.object_key = CASE WHEN g.is_entity THEN 'entity:' || o.id::text ELSE g.tkey END OFFSET 0) k
     WHERE g.vt IS NOT NULL AND (NOT g.is_entity OR o.id IS NOT NULL);
    IF ids IS NOT NULL THEN
        UPDATE claim c SET valid_to = f.vt
          FROM unnest(ids, vts) AS f(id, vt)
         WHERE c.id = ANY(ids) AND c.id = f.id AND f.vt IS DISTINCT FROM c.valid_to
           AND (c.valid_to IS NULL OR c.ended_by IS NOT NULL
                OR aizk_time_bound(f.vt, true) > aizk_time_bound(c.valid_to, true));
    END IF;
END $$;
REVOKE ALL ON FUNCTION aizk_annotate_claim_ends(uuid[], text[], text[], text[], text[], text[], boolean[], text[], text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_annotate_claim_ends(uuid[], text[], text[], text[], text[], text[], boolean[], text[], text[]) TO {{app_role}};
