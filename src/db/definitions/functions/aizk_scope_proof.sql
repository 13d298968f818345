-- The proof for one transaction's sets: HMAC-SHA256 under the database's key (aizk_scope_key).
-- Owner only: the app role has no EXECUTE on it.
CREATE OR REPLACE FUNCTION aizk_scope_proof(read_set uuid[], write_set uuid[], backend integer, started timestamp with time zone)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    RETURN (SELECT encode(sha256(k.opad || sha256(k.ipad || convert_to(
               read_set::text || '|' || write_set::text || '|' || backend::text || '|'
               || extract(epoch FROM started)::text, 'UTF8'))), 'hex')
              FROM public.aizk_scope_key k);
END $function$;
REVOKE ALL ON FUNCTION aizk_scope_proof(read_set uuid[], write_set uuid[], backend integer, started timestamp with time zone) FROM PUBLIC;
