-- Completion in one place. Success is the finished picks of one worker leaving pgqueuer, each
-- with one `successful` log row; src/queue/complete.ts calls this function, the one statement
-- that completes jobs. Only rows the worker still owns are
-- completed: a row re-picked after a stale heartbeat belongs to its new worker. The owner check
-- is wrapped in "IS TRUE" so that no index answers it: rows are found by id through the primary
-- key whatever the statistics say (docs/job-lifecycle.md#plans-that-hold-whatever-the-statistics-say).
-- The statement writes its own live-count delta (every row left `picked`) and its throughput row,
-- with aizk.own_counts on so the statement triggers that would derive them skip it
-- (docs/job-lifecycle.md#live-counts-and-throughput-on-the-hot-path).
CREATE OR REPLACE FUNCTION aizk_complete(p_ids bigint[], p_queue_manager_id uuid)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_n bigint;
BEGIN
    PERFORM set_config('aizk.own_counts', 'on', true);
    WITH done AS (
        DELETE FROM pgqueuer q
         WHERE q.id = ANY (p_ids) AND (q.queue_manager_id = p_queue_manager_id AND q.status = 'picked') IS TRUE
        RETURNING q.id, q.priority, q.entrypoint
    ), logged AS (
        INSERT INTO pgqueuer_log (job_id, status, priority, entrypoint)
        SELECT done.id, 'successful', done.priority, done.entrypoint FROM done
    ), per_group AS (
        SELECT done.entrypoint, done.priority, count(*) AS n FROM done GROUP BY 1, 2
    ), counted AS (
        INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
        SELECT g.entrypoint, g.priority, 'picked', -g.n FROM per_group g
    ), throughput AS (
        INSERT INTO aizk_throughput (second, entrypoint, status, n)
        SELECT date_trunc('second', now()), g.entrypoint, 'successful', sum(g.n) FROM per_group g GROUP BY 2
    )
    SELECT coalesce(sum(g.n), 0) INTO v_n FROM per_group g;
    PERFORM set_config('aizk.own_counts', '', true);
    RETURN v_n;
END
$function$;
GRANT EXECUTE ON FUNCTION aizk_complete(p_ids bigint[], p_queue_manager_id uuid) TO {{app_role}};
