-- aizk:requires functions/aizk_write_scopes
-- aizk:requires functions/aizk_payload_scopes
-- Drops the queued jobs of one entrypoint by dedupe key (the projections of chunks the caller has
-- just replaced), only for entrypoints scoped work may enqueue and only jobs whose payload carries
-- exactly the caller's write set.
CREATE OR REPLACE FUNCTION aizk_drop_queued_jobs(entry text, keys text[])
 RETURNS bigint
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    w uuid[] := public.aizk_write_scopes();
    n bigint;
BEGIN
    -- The count trigger counts this delete whatever the caller set (aizk_count_delete's WHEN).
    PERFORM set_config('aizk.own_counts', '', true);
    IF NOT EXISTS (SELECT 1 FROM public.aizk_app_entrypoint e WHERE e.entrypoint = entry) THEN
        RAISE EXCEPTION 'drop refused: entrypoint % is not one scoped work may enqueue (aizk_app_entrypoint)', entry
            USING ERRCODE = '42501';
    END IF;
    IF cardinality(w) = 0 THEN
        RETURN 0;
    END IF;
    WITH gone AS (
        DELETE FROM public.pgqueuer q
         WHERE q.entrypoint = entry AND q.status = 'queued' AND q.dedupe_key = ANY(keys)
           AND public.aizk_payload_scopes(q.payload) = w
        RETURNING 1)
    SELECT count(*) INTO n FROM gone;
    RETURN n;
END $function$;
REVOKE ALL ON FUNCTION aizk_drop_queued_jobs(entry text, keys text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_drop_queued_jobs(entry text, keys text[]) TO {{app_role}};
