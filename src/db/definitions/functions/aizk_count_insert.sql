-- Cheaper live counts on enqueue (issue 15, docs/benchmarks.md).
--
-- aizk_count_insert aggregated its transition table (GROUP BY entrypoint, priority, status) for
-- every INSERT statement. For a one-row statement, the common single enqueue, setting up that
-- aggregation was most of the trigger's cost: measured by backend CPU over 4,000 one-row
-- inserts, the trigger added about 35 us per insert to the 80 us of the insert itself, and the
-- same delta row written without the aggregation about 20 us. A statement of one row now writes
-- its one delta row directly; a statement of more rows aggregates as before. The delta rows
-- and so every count are the same: (entrypoint, priority, status, 1) for the one row.
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
