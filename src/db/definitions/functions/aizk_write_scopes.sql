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
                (SELECT encode(sha256(k.opad || sha256(k.ipad || convert_to(
                            r::text || '|' || w::text || '|' || pg_backend_pid()::text || '|'
                            || extract(epoch FROM transaction_timestamp())::text, 'UTF8'))), 'hex')
                   FROM public.aizk_scope_key k), false) THEN
        RETURN w;
    END IF;
    RETURN '{}';
END $function$;
GRANT EXECUTE ON FUNCTION aizk_write_scopes() TO {{app_role}};
