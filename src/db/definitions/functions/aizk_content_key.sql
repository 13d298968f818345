-- The key that makes originals unique per scope set, on aizk_content and on artifact: the set and
-- the content id in one text. The indexes are built on this expression rather than on
-- content_id, because the app role's `content_id = X` is leakproof and would reach an index on
-- that column before row security, showing (in EXPLAIN ANALYZE's rows removed by the policy, or
-- in the statistics counters) whether anyone stored bytes with that hash. This function is not
-- leakproof, so a query of the app role applies it only after the policy, on its own rows;
-- the owner's functions look originals up through it by the exact (set, id) pair
-- (docs/security.md, "Existence probes").
CREATE OR REPLACE FUNCTION aizk_content_key(scopes uuid[], content_id text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
BEGIN
    RETURN scopes::text || content_id;
END $function$;
GRANT EXECUTE ON FUNCTION aizk_content_key(scopes uuid[], content_id text) TO {{app_role}};
