-- The newest heartbeat a stale pick can have: older than the smaller of the two timeouts (the
-- foreign one only when it is on). Compared with `heartbeat`, it lets aizk_picked_heartbeat_idx
-- find the candidates before aizk_stale_pick judges each one.
CREATE OR REPLACE FUNCTION aizk_stale_pick_bound(p_stale_seconds double precision, p_foreign_stale_seconds double precision)
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
    SELECT now() - make_interval(secs => CASE WHEN p_foreign_stale_seconds > 0
                                              THEN least(p_stale_seconds, p_foreign_stale_seconds)
                                              ELSE p_stale_seconds END)
$function$;
