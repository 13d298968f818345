-- The pick over many bound entrypoints, and cheaper live counts (docs/benchmarks.md, issue 15).
--
-- 1. aizk_pick takes a batch of a worker bound to many entrypoints as cheaply as one of a single
--    entrypoint. 0011 walked every bound entrypoint in turn, each walk a few statements that
--    locked up to a whole batch, and kept the best batch of them: a worker bound to 20 busy
--    entrypoints locked 20 batches to pick one. Now, for the entrypoints without a limit, when
--    there are two or more of them (one alone keeps 0011's walk: its own index range holds
--    only its rows, while the front of the whole queue also holds every other worker's rows
--    and, until VACUUM, the dead index entries of every finished job):
--      a. one read without locks of the front of the queue in pick order (through
--         pgqueuer_priority_id_id1_idx) asks whether the first batch + 16 queued rows hold a
--         batch of ready rows of these entrypoints (the front is this worker's, nearly whole);
--      b. if so, one statement walks the first 2 x batch + 16 rows of the front again with FOR
--         UPDATE SKIP LOCKED and takes the first batch of them, locking only the rows it passes
--         (rows other pickers hold are skipped and not counted, as before);
--      c. otherwise (the queue's front belongs to other entrypoints, or is not ready yet, or
--         holds less than a batch) 0011's walk runs for what is left of the batch, skipping the
--         rows already taken. Limited entrypoints always take 0011's walk (advisory lock, then a
--         fresh count). The best batch of all is kept, in priority desc, id order.
--    The rules are 0011's: order, readiness, limits, stale re-picks, carried completions, log
--    parity.
-- 2. aizk_count_update: the delta of a statement is the multiset difference of its old and new
--    rows, so no join of the transition tables: (entrypoint, priority, status) -1 per old row, +1
--    per new row, summed, zero sums dropped (a heartbeat writes nothing, as before). The advisory
--    lock a foreign pick takes (0007) is looked for only when a picked row belongs to a queue
--    manager that is not a registered aizk worker, so aizk's own picks never pay for that join.
CREATE OR REPLACE FUNCTION aizk_count_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
    SELECT c.entrypoint, c.priority, c.status, sum(c.n) FROM (
        SELECT o.entrypoint, o.priority, o.status, -1 AS n FROM aizk_old o
        UNION ALL
        SELECT n.entrypoint, n.priority, n.status, 1 FROM aizk_new n
    ) c GROUP BY 1, 2, 3 HAVING sum(c.n) <> 0;
    IF EXISTS (SELECT 1 FROM (SELECT DISTINCT n.queue_manager_id FROM aizk_new n WHERE n.status = 'picked') m
                WHERE NOT EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = m.queue_manager_id)) THEN
        PERFORM pg_advisory_xact_lock(1634300523, hashtext(f.entrypoint))
           FROM (SELECT DISTINCT n.entrypoint COLLATE "C" AS entrypoint
                   FROM aizk_old o JOIN aizk_new n USING (id)
                  WHERE o.status = 'queued' AND n.status = 'picked'
                    AND NOT EXISTS (SELECT 1 FROM aizk_worker w WHERE w.queue_manager_id = n.queue_manager_id)
                  ORDER BY 1) f;
    END IF;
    RETURN NULL;
END $function$;
