-- Finished jobs per second, from the log's inserts. Only finished statuses count: PgQueuer also
-- logs `queued` and `picked` rows.
CREATE OR REPLACE FUNCTION aizk_throughput_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    INSERT INTO aizk_throughput (second, entrypoint, status, n)
    SELECT date_trunc('second', created), entrypoint, status, count(*) FROM aizk_new
     WHERE status NOT IN ('queued', 'picked')
     GROUP BY 1, 2, 3;
    RETURN NULL;
END $function$;
