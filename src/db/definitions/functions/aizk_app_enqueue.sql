-- aizk:requires functions/aizk_write_scopes
-- aizk:requires functions/aizk_app_enqueue_refusal
-- The one door: every row checked, then all inserted in order as the owner (the count and
-- notify triggers run as the system), headers only a checked trace context (aizk_trace_headers),
-- `queued` log rows with AIZK_QUEUE_LOG_PARITY. Returns the
-- rows inserted, in order; a row whose key is live is skipped, as enqueue's ON CONFLICT does.
CREATE OR REPLACE FUNCTION aizk_app_enqueue(p_priority integer[], p_entrypoint text[], p_payload bytea[], p_dedupe_key text[], p_execute_after timestamp with time zone[], p_headers jsonb[], p_log boolean)
 RETURNS TABLE(job_id bigint, job_key text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    w uuid[] := public.aizk_write_scopes();
    refusal text;
BEGIN
    IF cardinality(w) = 0 THEN
        RAISE EXCEPTION 'enqueue refused: this transaction has no proven write set'
            USING ERRCODE = '42501', HINT = 'enqueue inside User.system(scopes).transaction(...)';
    END IF;
    SELECT r.why INTO refusal
      FROM (SELECT t.ord, public.aizk_app_enqueue_refusal(w, t.p, t.e, t.b, t.k, t.ea, t.h) AS why
              FROM ROWS FROM (unnest(p_priority), unnest(p_entrypoint), unnest(p_payload), unnest(p_dedupe_key),
                              unnest(p_execute_after), unnest(p_headers)) WITH ORDINALITY AS t(p, e, b, k, ea, h, ord)
            OFFSET 0) r
     WHERE r.why IS NOT NULL
     ORDER BY r.ord LIMIT 1;
    IF refusal IS NOT NULL THEN
        RAISE EXCEPTION 'enqueue refused: %', refusal
            USING ERRCODE = '42501', HINT = 'scoped work enqueues only its own set''s jobs (docs/security.md)';
    END IF;
    RETURN QUERY
    WITH written AS (
        INSERT INTO public.pgqueuer (priority, entrypoint, payload, status, dedupe_key, execute_after, headers)
        SELECT t.p, t.e, t.b, 'queued', t.k, coalesce(t.ea, now()), t.h
          FROM ROWS FROM (unnest(p_priority), unnest(p_entrypoint), unnest(p_payload), unnest(p_dedupe_key),
                          unnest(p_execute_after), unnest(p_headers)) WITH ORDINALITY AS t(p, e, b, k, ea, h, ord)
         ORDER BY t.ord
        ON CONFLICT DO NOTHING
        RETURNING id, dedupe_key, priority, entrypoint),
    logged AS (
        INSERT INTO public.pgqueuer_log (job_id, status, priority, entrypoint)
        SELECT x.id, 'queued', x.priority, x.entrypoint FROM written x WHERE p_log)
    SELECT x.id, x.dedupe_key FROM written x;
END $function$;
REVOKE ALL ON FUNCTION aizk_app_enqueue(p_priority integer[], p_entrypoint text[], p_payload bytea[], p_dedupe_key text[], p_execute_after timestamp with time zone[], p_headers jsonb[], p_log boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_app_enqueue(p_priority integer[], p_entrypoint text[], p_payload bytea[], p_dedupe_key text[], p_execute_after timestamp with time zone[], p_headers jsonb[], p_log boolean) TO {{app_role}};
