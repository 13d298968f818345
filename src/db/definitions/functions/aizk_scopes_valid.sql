-- The rule every `scopes` column is checked by: a one-dimensional, 1-based, nonempty array with
-- no NULL, strictly increasing (sorted and duplicate-free). PL/pgSQL, so the session keeps its
-- plan: a SQL function with a subquery cannot be inlined and would plan its body again in every
-- statement that writes a scoped row (docs/memory-graph.md, "The write's plans").
CREATE OR REPLACE FUNCTION aizk_scopes_valid(s uuid[])
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
DECLARE
    n int := cardinality(s);
BEGIN
    IF n IS NULL OR n = 0 OR array_ndims(s) <> 1 OR array_lower(s, 1) <> 1 OR s[1] IS NULL THEN
        RETURN false;
    END IF;
    FOR i IN 2..n LOOP
        IF s[i] IS NULL OR s[i - 1] >= s[i] THEN RETURN false; END IF;
    END LOOP;
    RETURN true;
END $function$;
GRANT EXECUTE ON FUNCTION aizk_scopes_valid(s uuid[]) TO {{app_role}};
