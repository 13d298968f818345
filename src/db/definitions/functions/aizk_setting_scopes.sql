-- A scope set from a transaction setting, '{}' when unset. search_path is pinned: a caller's own
-- search_path must not pick what it resolves to.
CREATE OR REPLACE FUNCTION aizk_setting_scopes(name text)
 RETURNS uuid[]
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    RETURN coalesce(nullif(current_setting(name, true), ''), '{}')::uuid[];
END $function$;
GRANT EXECUTE ON FUNCTION aizk_setting_scopes(name text) TO {{app_role}};
