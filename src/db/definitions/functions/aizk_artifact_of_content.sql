-- aizk:requires functions/aizk_write_scopes
-- aizk:requires functions/aizk_content_key
-- The write set's own artifact of these bytes (an ingest that found it already there): one
-- lookup of the exact (set, id) key as the owner, since the app role's own query could not use
-- the index (aizk_content_key is not leakproof) and would scan every artifact it can see.
CREATE OR REPLACE FUNCTION aizk_artifact_of_content(p_content_id text)
 RETURNS TABLE (id uuid, conversion_status text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT a.id, a.conversion_status FROM public.artifact a
     WHERE aizk_content_key(a.scopes, a.content_id) = aizk_content_key(public.aizk_write_scopes(), p_content_id)
       AND cardinality(public.aizk_write_scopes()) > 0;
$function$;
REVOKE ALL ON FUNCTION aizk_artifact_of_content(p_content_id text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_artifact_of_content(p_content_id text) TO {{app_role}};
