-- Global concurrency limits hold for every picker that writes `picked`, PgQueuer's included.
-- An aizk worker records the limits of the entrypoints it binds in aizk_worker.limits. A row going
-- to `picked` for a queue manager that is not a registered aizk worker is counted under the
-- limit's advisory lock (the one aizk_pick takes), with a fresh snapshot that also sees the rows
-- picked earlier in the same statement; over the smallest limit any aizk worker declares, the row
-- is skipped (NULL): the UPDATE leaves it `queued`, so PgQueuer's pick gets fewer rows and writes
-- no `picked` log row for it. The first row of a registered aizk worker's pick marks its queue
-- manager in aizk.limit_exempt, and the trigger's WHEN passes the rest of that transaction's rows
-- without a call: aizk's picks already count under that lock. Before it takes an entrypoint's
-- lock the function takes the lock of every limited entrypoint whose name sorts before it ("C"
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
    SELECT min((w.limits ->> NEW.entrypoint)::int) FILTER (WHERE w.limits ? NEW.entrypoint),
           coalesce(bool_or(w.queue_manager_id = NEW.queue_manager_id), false)
      INTO v_limit, v_ours
      FROM aizk_worker w;
    IF v_ours THEN
        PERFORM set_config('aizk.limit_exempt', NEW.queue_manager_id::text, true);
        RETURN NEW;
    END IF;
    IF v_limit IS NULL OR v_limit <= 0 THEN
        RETURN NEW;
    END IF;
    PERFORM pg_advisory_xact_lock(1634300523, hashtext(f.entrypoint))
       FROM (SELECT DISTINCT k.entrypoint COLLATE "C" AS entrypoint
               FROM aizk_worker w, jsonb_object_keys(w.limits) AS k(entrypoint)
              WHERE k.entrypoint COLLATE "C" <= NEW.entrypoint COLLATE "C"
              ORDER BY 1) f;
    SELECT count(*) INTO v_picked FROM pgqueuer q
     WHERE q.entrypoint = NEW.entrypoint AND q.status = 'picked';
    IF v_picked >= v_limit THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END $function$;
