-- aizk:requires functions/aizk_scope_proof
-- True when this transaction's settings carry the owner's proof for exactly these sets, on this
-- backend, in this transaction. Anything else (a forged set_config, a proof copied from another
-- transaction or connection) is false.
CREATE OR REPLACE FUNCTION aizk_scopes_proven(read_set uuid[], write_set uuid[])
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    RETURN coalesce(current_setting('aizk.scope_proof', true) =
                    public.aizk_scope_proof(read_set, write_set, pg_backend_pid(), transaction_timestamp()), false);
END $function$;
REVOKE ALL ON FUNCTION aizk_scopes_proven(read_set uuid[], write_set uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_scopes_proven(read_set uuid[], write_set uuid[]) TO {{app_role}};
