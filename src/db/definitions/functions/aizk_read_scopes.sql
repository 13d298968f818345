-- The scope check every row-security policy runs (docs/security.md), in one function call
-- instead of five. aizk_read_scopes() and aizk_write_scopes() called aizk_setting_scopes twice
-- and aizk_scopes_proven, which called aizk_scope_proof: each call a PL/pgSQL frame with its own
-- pinned search_path to push and pop. A projected chunk runs about 25 of these checks (one init
-- plan per policy per statement), and they were close to half its database CPU. Same logic, same
-- proof: the two functions now verify it themselves, as the owner (SECURITY DEFINER, to read the
-- key), and still return only the caller's own settings, or the empty set without the proof.
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
