-- Completion in one place. Success is the finished picks of one worker leaving pgqueuer, each
-- with one `successful` log row; both src/queue/complete.ts and aizk_pick (the completions a pick
-- carries) call this function, so the statement exists once. Only rows the worker still owns are
-- completed: a row re-picked after a stale heartbeat belongs to its new worker. The owner check
-- is wrapped in "IS TRUE" so that no index answers it: rows are found by id through the primary
-- key whatever the statistics say (docs/job-lifecycle.md#plans-that-hold-whatever-the-statistics-say).
CREATE OR REPLACE FUNCTION aizk_complete(p_ids bigint[], p_queue_manager_id uuid)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_n bigint;
BEGIN
    WITH done AS (
        DELETE FROM pgqueuer q
         WHERE q.id = ANY (p_ids) AND (q.queue_manager_id = p_queue_manager_id AND q.status = 'picked') IS TRUE
        RETURNING q.id, q.priority, q.entrypoint)
    INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
    SELECT done.id, 'successful', done.priority, done.entrypoint FROM done;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END
$function$;
GRANT EXECUTE ON FUNCTION aizk_complete(p_ids bigint[], p_queue_manager_id uuid) TO {{app_role}};
