-- Live counts, delete side: minus one per deleted row, one delta row per (entrypoint, priority, status).
CREATE OR REPLACE FUNCTION aizk_count_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    INSERT INTO aizk_queue_count_delta (entrypoint, priority, status, n)
    SELECT entrypoint, priority, status, -count(*) FROM aizk_old GROUP BY 1, 2, 3;
    RETURN NULL;
END $function$;
