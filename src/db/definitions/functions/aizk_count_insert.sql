-- Live counts, insert side: one delta row per (entrypoint, priority, status) the statement added.
-- A one-row statement (the common single enqueue) writes its delta row directly: aggregating the
-- transition table cost more than the insert itself (docs/benchmarks.md).
CREATE OR REPLACE FUNCTION aizk_count_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF EXISTS (SELECT 1 FROM aizk_new OFFSET 1) THEN
        INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
        SELECT entrypoint, priority, status, count(*) FROM aizk_new GROUP BY 1, 2, 3;
    ELSE
        INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
        SELECT entrypoint, priority, status, 1 FROM aizk_new;
    END IF;
    RETURN NULL;
END $function$;
