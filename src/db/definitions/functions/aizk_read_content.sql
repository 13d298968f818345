-- aizk:requires functions/aizk_read_scopes
-- aizk:requires functions/aizk_content_key
-- The bytes of an original of set p_scopes, when that set is within the caller's proven read set:
-- one lookup of the exact (set, id) key, as the owner, so it neither reads past row security nor
-- scans the caller's rows (a query of the app role on content_id cannot use an index; see
-- aizk_content_key). NULL when there are none, whoever else stored the same bytes.
CREATE OR REPLACE FUNCTION aizk_read_content(p_content_id text, p_scopes uuid[])
 RETURNS bytea
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF coalesce(cardinality(p_scopes), 0) = 0 OR NOT (p_scopes <@ aizk_read_scopes()) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT c.bytes FROM public.aizk_content c
             WHERE aizk_content_key(c.scopes, c.content_id) = aizk_content_key(p_scopes, p_content_id));
END $function$;
REVOKE ALL ON FUNCTION aizk_read_content(p_content_id text, p_scopes uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_read_content(p_content_id text, p_scopes uuid[]) TO {{app_role}};
