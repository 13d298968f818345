-- Global concurrency limits hold for every picker that writes `picked`, PgQueuer's included.
--
-- An aizk worker records the limits of the entrypoints it binds in its aizk_worker row
-- (`limits`, entrypoint -> limit, only limits above 0). A row going to `picked` for a queue
-- manager that is not a registered aizk worker (a PgQueuer worker, or any other writer) is
-- counted by a row trigger under the limit's advisory lock, the one aizk_pick takes, with a fresh
-- snapshot that also sees the rows picked earlier in the same statement; over the smallest limit
-- any aizk worker declares for that entrypoint, the trigger skips the row (returns NULL): the
-- UPDATE leaves it `queued` and does not return it, so PgQueuer's pick simply gets fewer rows
-- and its `picked` log row is not written. aizk's own picks already count under that lock and
-- pass straight through: the first row of a registered aizk worker's pick marks its queue manager
-- in a transaction-local setting (aizk.limit_exempt), and the trigger's WHEN skips the rest of
-- that transaction's rows without calling the function (a pick of 64 rows pays for one lookup).
-- The setting only spares aizk's picks a recount; writing it by hand to pass the limit is no
-- more than any writer of pgqueuer could do by setting `picked` directly.
--
-- Deadlocks: aizk_pick takes the limit locks in name order ("C" collation). The rows of one
-- foreign pick come in any order, so before it takes an entrypoint's lock the trigger takes the
-- lock of every limited entrypoint whose name sorts before it; every pick then takes them in
-- name order.

ALTER TABLE aizk_worker ADD COLUMN IF NOT EXISTS limits JSONB NOT NULL DEFAULT '{}';

CREATE OR REPLACE FUNCTION aizk_limit_foreign_pick() RETURNS TRIGGER LANGUAGE plpgsql AS $$
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
END $$;

DROP TRIGGER IF EXISTS aizk_limit_foreign_pick ON pgqueuer;
CREATE TRIGGER aizk_limit_foreign_pick
    BEFORE UPDATE OF status ON pgqueuer
    FOR EACH ROW
    WHEN (NEW.status = 'picked' AND OLD.status IS DISTINCT FROM 'picked'
          AND current_setting('aizk.limit_exempt', true) IS DISTINCT FROM NEW.queue_manager_id::text)
    EXECUTE FUNCTION aizk_limit_foreign_pick();
