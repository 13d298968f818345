-- The caller's read set, as every row-security policy reads it (once per statement, as an init
-- plan): the transaction's aizk.read_scopes when aizk.scope_proof carries the owner's HMAC of
-- (read set, write set, backend pid, transaction start), else the empty set (docs/security.md).
-- The proof is verified here, as the owner (SECURITY DEFINER, to read the key), in one call: a
-- projected chunk runs about 25 of these checks, and a chain of helper calls was close to half
-- its database CPU.
CREATE OR REPLACE FUNCTION aizk_read_scopes()
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
        RETURN r;
    END IF;
    RETURN '{}';
END $function$;
GRANT EXECUTE ON FUNCTION aizk_read_scopes() TO {{app_role}};
