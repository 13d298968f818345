-- Live counts after TRUNCATE pgqueuer: nothing is left to count.
CREATE OR REPLACE FUNCTION aizk_count_truncate()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    DELETE FROM aizk_queue_count_delta;
    DELETE FROM aizk_queue_count;
    RETURN NULL;
END $function$;
