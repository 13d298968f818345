-- aizk:requires functions/aizk_stale_pick_bound
-- The rule for a stale pick, which aizk_pick re-picks and `aizk status` reports: a pick is stale
-- only when its owner is proven dead (docs/job-lifecycle.md#heartbeat). A registered aizk worker
-- heartbeats every pick it holds, so its pick older than p_stale_seconds is dead. Any other owner
-- (a PgQueuer worker, or none) heartbeats on its own schedule: only p_foreign_stale_seconds
-- (0 = never) proves it dead.
CREATE OR REPLACE FUNCTION aizk_stale_pick(p_heartbeat timestamp with time zone, p_queue_manager_id uuid, p_stale_seconds double precision, p_foreign_stale_seconds double precision)
 RETURNS boolean
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
    SELECT p_heartbeat < aizk_stale_pick_bound(p_stale_seconds, p_foreign_stale_seconds)
       AND CASE WHEN EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = p_queue_manager_id)
                THEN p_heartbeat < now() - make_interval(secs => p_stale_seconds)
                ELSE p_foreign_stale_seconds > 0
                     AND p_heartbeat < now() - make_interval(secs => p_foreign_stale_seconds)
           END
$function$;
