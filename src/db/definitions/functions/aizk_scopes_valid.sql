-- The projection's write at a third of its database CPU (docs/memory-graph.md, "The write's plans").
--
-- 0012's aizk_write_projection planned every statement on every call (force_custom_plan): its
-- plans, cached while a set's graph was nearly empty, would have kept sequential scans as the
-- tables grew. Planning was a third of the backend's time a chunk, the CHECK on `scopes` another
-- tenth (a SQL function with a subquery cannot be inlined, so each statement planned its body
-- again), and the supersede step read every claim of a subject ("Python": thousands) per new claim.
--
-- 1. aizk_scopes_valid in PL/pgSQL: the same rule (a one-dimensional, 1-based, nonempty array
--    with no NULL, strictly increasing: sorted and duplicate-free), its plan kept by the session.
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
