-- aizk:requires functions/aizk_write_scopes
-- aizk:requires functions/aizk_content_key
-- The app role's only way to store content: the id is computed here from the bytes and the row is
-- the write set's own (one copy per set), so storing touches nothing of another set and answers,
-- works and counts the same whether another tenant stored the same bytes or not. A row of the set
-- is what lets an artifact of the set name the bytes (aizk_artifact_content_held).
CREATE OR REPLACE FUNCTION aizk_store_content(content bytea)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    id text := encode(sha256(content), 'hex');
    w uuid[] := aizk_write_scopes();
BEGIN
    IF cardinality(w) = 0 THEN
        RAISE EXCEPTION 'aizk_store_content: no proven write set' USING ERRCODE = '42501',
            HINT = 'store content inside User.system(scopes).transaction';
    END IF;
    INSERT INTO public.aizk_content (content_id, scopes, bytes, byte_size)
    VALUES (id, w, content, octet_length(content))
    ON CONFLICT (aizk_content_key(scopes, content_id)) DO NOTHING;
    RETURN id;
END $function$;
REVOKE ALL ON FUNCTION aizk_store_content(content bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_store_content(content bytea) TO {{app_role}};
