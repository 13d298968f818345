-- Global concurrency limits hold for every picker that writes `picked`, PgQueuer's included.
-- A row going to `picked` for a queue manager that is not a registered aizk worker is counted
-- under the limit's advisory lock (the one aizk_pick takes), with a fresh snapshot that also sees
-- the rows picked earlier in the same statement; at or over the limit the row is skipped (NULL):
-- the UPDATE leaves it `queued`, so PgQueuer's pick gets fewer rows and writes no `picked` log
-- row for it.
--
-- Which limit: the smallest of the one stored in aizk_entrypoint_limit (the latest aizk
-- registration's, kept after every aizk worker has exited) and those the live aizk workers'
-- rows declare (aizk_worker.limits). A row whose heartbeat is older than its own
-- heartbeat_timeout_seconds is a dead worker's: its limits no longer count.
--
-- The first row of a registered aizk worker's pick marks its queue manager in aizk.limit_exempt,
-- and the trigger's WHEN passes the rest of that transaction's rows without a call: aizk's picks
-- already count under that lock. Before it takes an entrypoint's lock the function takes the
-- lock of every limited entrypoint (stored or in any worker row) whose name sorts before it ("C"
-- collation), the order aizk_pick takes them in, so two picks never deadlock.
CREATE OR REPLACE FUNCTION aizk_limit_foreign_pick()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_limit  int;
    v_ours   boolean;
    v_picked bigint;
BEGIN
    SELECT min((w.limits ->> NEW.entrypoint)::int)
             FILTER (WHERE w.limits ? NEW.entrypoint
                       AND w.heartbeat >= now() - make_interval(secs => w.heartbeat_timeout_seconds)),
           coalesce(bool_or(w.queue_manager_id = NEW.queue_manager_id), false)
      INTO v_limit, v_ours
      FROM aizk_worker w;
    IF v_ours THEN
        PERFORM set_config('aizk.limit_exempt', NEW.queue_manager_id::text, true);
        RETURN NEW;
    END IF;
    v_limit := least(v_limit, (SELECT l.concurrency_limit FROM aizk_entrypoint_limit l
                                WHERE l.entrypoint = NEW.entrypoint));
    IF v_limit IS NULL OR v_limit <= 0 THEN
        RETURN NEW;
    END IF;
    PERFORM pg_advisory_xact_lock(1634300523, hashtext(f.entrypoint))
       FROM (SELECT k.entrypoint COLLATE "C" AS entrypoint
               FROM aizk_worker w, jsonb_object_keys(w.limits) AS k(entrypoint)
              WHERE k.entrypoint COLLATE "C" <= NEW.entrypoint COLLATE "C"
             UNION
             SELECT l.entrypoint COLLATE "C" FROM aizk_entrypoint_limit l
              WHERE l.entrypoint COLLATE "C" <= NEW.entrypoint COLLATE "C"
             ORDER BY 1) f;
    SELECT count(*) INTO v_picked FROM pgqueuer q
     WHERE q.entrypoint = NEW.entrypoint AND q.status = 'picked';
    IF v_picked >= v_limit THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END $function$;
