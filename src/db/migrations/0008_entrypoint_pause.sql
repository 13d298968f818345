-- Paused entrypoints (`aizk pause` / `aizk resume`): one row per paused entrypoint. Workers leave
-- these out of what they ask aizk_pick for, read the table on start (so a restarted worker stays
-- paused) and learn of changes through NOTIFY on aizk_control. Enqueueing is not affected.
CREATE TABLE IF NOT EXISTS aizk_entrypoint_pause (
    entrypoint TEXT        PRIMARY KEY,
    paused_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    paused_by  TEXT,
    reason     TEXT
);

-- Any change, whoever makes it (the commands or SQL by hand), tells every worker at commit.
-- Its own channel: PgQueuer's workers parse every payload on ch_pgqueuer and know no such event.
CREATE OR REPLACE FUNCTION aizk_entrypoint_pause_changed() RETURNS TRIGGER AS $$
DECLARE
    v_entrypoint text := CASE WHEN TG_OP = 'DELETE' THEN OLD.entrypoint ELSE NEW.entrypoint END;
BEGIN
    PERFORM pg_notify('aizk_control', json_build_object(
        'channel', 'aizk_control',
        'type', CASE WHEN TG_OP = 'DELETE' THEN 'entrypoint_resumed' ELSE 'entrypoint_paused' END,
        'entrypoint', v_entrypoint,
        'sent_at', now())::text);
    RETURN NULL;
END $$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS aizk_entrypoint_pause_changed ON aizk_entrypoint_pause;
CREATE TRIGGER aizk_entrypoint_pause_changed AFTER INSERT OR UPDATE OR DELETE ON aizk_entrypoint_pause
    FOR EACH ROW EXECUTE FUNCTION aizk_entrypoint_pause_changed();

GRANT SELECT ON aizk_entrypoint_pause TO {{app_role}};
