-- aizk:requires functions/aizk_write_scopes
-- aizk:requires functions/aizk_write_projection_as_owner
-- A chunk's projection, written by one call (src/graph/project/project-chunk.ts): refused unless the
-- chunk and the set it writes are the caller's proven write set; then the body runs as the owner,
-- since its statements name rows only by that set.
-- Its earlier signature, without the entities' descriptions.
DROP FUNCTION IF EXISTS aizk_write_projection(uuid[], uuid, double precision, text[], text[], text[], integer[], text[], text[], text[], text[], text[], boolean[], text[]);
CREATE OR REPLACE FUNCTION aizk_write_projection(p_scopes uuid[], p_chunk uuid, p_half_life double precision, e_name text[], e_norm text[], e_kind text[], e_mentions integer[], e_description text[], c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[], c_object_is_entity boolean[], c_text_key text[], OUT entities integer, OUT claims integer, OUT mentions integer)
 RETURNS record
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    w uuid[] := public.aizk_write_scopes();
BEGIN
    IF cardinality(w) = 0 OR p_scopes IS DISTINCT FROM w THEN
        RAISE EXCEPTION 'projection refused: it writes {%}, the transaction''s write set is {%}',
            array_to_string(p_scopes, ','), array_to_string(w, ',') USING ERRCODE = '42501';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.chunk c WHERE c.id = p_chunk AND c.scopes = w) THEN
        RAISE EXCEPTION 'projection refused: chunk % is not in the write set', p_chunk USING ERRCODE = '42501';
    END IF;
    SELECT x.entities, x.claims, x.mentions INTO entities, claims, mentions
      FROM public.aizk_write_projection_as_owner(p_scopes, p_chunk, p_half_life, e_name, e_norm, e_kind, e_mentions, e_description,
             c_subject, c_subject_kind, c_predicate, c_object, c_object_kind, c_object_is_entity, c_text_key) x;
END $function$;
REVOKE ALL ON FUNCTION aizk_write_projection(p_scopes uuid[], p_chunk uuid, p_half_life double precision, e_name text[], e_norm text[], e_kind text[], e_mentions integer[], e_description text[], c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[], c_object_is_entity boolean[], c_text_key text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_write_projection(p_scopes uuid[], p_chunk uuid, p_half_life double precision, e_name text[], e_norm text[], e_kind text[], e_mentions integer[], e_description text[], c_subject text[], c_subject_kind text[], c_predicate text[], c_object text[], c_object_kind text[], c_object_is_entity boolean[], c_text_key text[]) TO {{app_role}};
