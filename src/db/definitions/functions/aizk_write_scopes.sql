-- aizk:requires functions/aizk_scope_proof
-- The caller's write set: as aizk_read_scopes, for aizk.write_scopes.
CREATE OR REPLACE FUNCTION aizk_write_scopes()
 RETURNS uuid[]
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    r uuid[] := coalesce(nullif(current_setting('aizk.read_scopes', true), ''), '{}')::uuid[];
    w uuid[] := coalesce(nullif(current_setting('aizk.write_scopes', true), ''), '{}')::uuid[];
BEGIN
    IF coalesce(current_setting('aizk.scope_proof', true) =
                public.aizk_scope_proof(r, w, pg_backend_pid(), transaction_timestamp()), false) THEN
        RETURN w;
    END IF;
    RETURN '{}';
END $function$;
GRANT EXECUTE ON FUNCTION aizk_write_scopes() TO {{app_role}};
