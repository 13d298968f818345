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
