-- Written right after aizk_write_projection, in the same statement of the projection's write
-- (a later call of a volatile function sees what the earlier one wrote), with the same keys. A
-- value already there stays: the first description of an entity is kept, and a claim keeps the
-- earliest date any chunk gave it (compared as the text gives them only when both have a year;
-- otherwise the first one stays). Security invoker: row security applies, so it touches only rows
-- of the caller's write set.
CREATE OR REPLACE FUNCTION aizk_annotate_projection(
    p_scopes uuid[],
    e_norm text[], e_kind text[], e_description text[],
    c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[],
    c_object_is_entity boolean[], c_text_key text[], c_description text[], c_valid_from text[])
    RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    UPDATE entity e SET description = u.d
      FROM unnest(e_norm, e_kind, e_description) AS u(norm, kind, d)
     WHERE u.d IS NOT NULL AND e.scopes = p_scopes AND e.normalized_name = u.norm AND e.kind = u.kind
       AND e.merged_into IS NULL AND e.description IS NULL;

    WITH given AS (
        SELECT s.id AS sid, u.p, CASE WHEN u.is_entity THEN 'entity:' || o.id::text ELSE u.tkey END AS okey, u.d, u.vf
          FROM unnest(c_subject, c_subject_kind, c_predicate, c_object, c_object_kind, c_object_is_entity, c_text_key, c_description, c_valid_from)
                 AS u(subj, skind, p, obj, okind, is_entity, tkey, d, vf)
          CROSS JOIN LATERAL (SELECT coalesce(x.merged_into, x.id) AS id FROM entity x
                               WHERE x.normalized_name = u.subj AND x.kind = u.skind AND x.scopes = p_scopes OFFSET 0) s
          LEFT JOIN LATERAL (SELECT coalesce(x.merged_into, x.id) AS id FROM entity x
                              WHERE u.is_entity AND x.normalized_name = u.obj AND x.kind = u.okind AND x.scopes = p_scopes OFFSET 0) o ON true
         WHERE (u.d IS NOT NULL OR u.vf IS NOT NULL) AND (NOT u.is_entity OR o.id IS NOT NULL))
    UPDATE claim c SET
        description = coalesce(c.description, g.d),
        valid_from = CASE
            WHEN g.vf IS NULL THEN c.valid_from
            WHEN c.valid_from IS NULL THEN g.vf
            WHEN substring(g.vf FROM '(1[89]\d\d|20\d\d)') < substring(c.valid_from FROM '(1[89]\d\d|20\d\d)') THEN g.vf
            ELSE c.valid_from END
      FROM given g
     WHERE c.scopes = p_scopes AND c.subject_id = g.sid AND c.predicate = g.p AND c.object_key = g.okey
       AND ((g.d IS NOT NULL AND c.description IS NULL) OR (g.vf IS NOT NULL AND g.vf IS DISTINCT FROM c.valid_from));
END $$;
REVOKE ALL ON FUNCTION aizk_annotate_projection(uuid[], text[], text[], text[], text[], text[], text[], text[], text[], boolean[], text[], text[], text[])
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_annotate_projection(uuid[], text[], text[], text[], text[], text[], text[], text[], text[], boolean[], text[], text[], text[])
    TO {{app_role}};
