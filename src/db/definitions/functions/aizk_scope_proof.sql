-- 2. The scope checks every row-security policy runs (once per statement, as init plans) in
-- PL/pgSQL: same logic, same owners and grants, but as SQL functions that cannot be inlined (they
-- pin search_path) each call planned its body again, six plans per check: about a quarter of a
-- millisecond per statement, several milliseconds per projected chunk. PL/pgSQL keeps its plans.
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
