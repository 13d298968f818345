-- aizk:requires functions/aizk_scope_proof
-- The caller's read set, as every row-security policy reads it (once per statement, as an init
-- plan): the transaction's aizk.read_scopes when aizk.scope_proof carries the owner's HMAC of
-- (read set, write set, backend pid, transaction start), else the empty set (docs/security.md).
-- The proof is verified here, as the owner (SECURITY DEFINER, to read the key), by
-- aizk_scope_proof, the one place its formula is written. A projected chunk runs about 25 of
-- these checks: one call each, not the chain of helpers that was close to half its database CPU.
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
                public.aizk_scope_proof(r, w, pg_backend_pid(), transaction_timestamp()), false) THEN
        RETURN r;
    END IF;
    RETURN '{}';
END $function$;
GRANT EXECUTE ON FUNCTION aizk_read_scopes() TO {{app_role}};
