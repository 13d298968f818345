-- Live counts, update side. The delta of a statement is the multiset difference of its old and
-- new rows, so no join of the transition tables: (entrypoint, priority, status) -1 per old row,
-- +1 per new row, summed, zero sums dropped (a heartbeat writes nothing).
-- A foreign pick (queued -> picked by a queue manager that is not a registered aizk worker)
-- takes the advisory lock aizk_pick takes for the entrypoint, in the same order (by name, byte
-- order), and holds it to commit: an aizk pick counting that entrypoint's picked rows waits for
-- the foreign pick to commit and counts it. The lock is looked for only when a picked row belongs
-- to an unregistered queue manager, so aizk's own picks never pay for that join.
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
