-- Any change to aizk_entrypoint_pause, whoever makes it, tells every worker at commit on its own
-- channel, aizk_control: PgQueuer's workers parse every payload on ch_pgqueuer and know no such
-- event.
CREATE OR REPLACE FUNCTION aizk_entrypoint_pause_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_entrypoint text := CASE WHEN TG_OP = 'DELETE' THEN OLD.entrypoint ELSE NEW.entrypoint END;
BEGIN
    PERFORM pg_notify('aizk_control', json_build_object(
        'channel', 'aizk_control',
        'type', CASE WHEN TG_OP = 'DELETE' THEN 'entrypoint_resumed' ELSE 'entrypoint_paused' END,
        'entrypoint', v_entrypoint,
        'sent_at', now())::text);
    RETURN NULL;
END $function$;
