-- PgQueuer's own notification function, created only where PgQueuer has not made it: a database
-- PgQueuer installed keeps PgQueuer's version untouched. Its payload is what PgQueuer's workers
-- parse on ch_pgqueuer (docs/pgqueuer-interop.md, the table contract).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'fn_pgqueuer_changed' AND pronamespace = current_schema()::regnamespace) THEN
    CREATE FUNCTION fn_pgqueuer_changed() RETURNS TRIGGER AS $fn$
    DECLARE
        to_emit BOOLEAN := false;
    BEGIN
        -- In a statement trigger OLD and NEW are null: UPDATE never emits, the rest always do.
        IF TG_OP = 'UPDATE' AND OLD IS DISTINCT FROM NEW THEN
            to_emit := true;
        ELSIF TG_OP IN ('DELETE', 'INSERT', 'TRUNCATE') THEN
            to_emit := true;
        END IF;
        IF to_emit THEN
            PERFORM pg_notify(
                'ch_pgqueuer',
                json_build_object(
                    'channel', 'ch_pgqueuer',
                    'operation', lower(TG_OP),
                    'sent_at', NOW(),
                    'table', TG_TABLE_NAME,
                    'type', 'table_changed_event'
                )::text
            );
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            RETURN NEW;
        ELSIF TG_OP = 'DELETE' THEN
            RETURN OLD;
        ELSE
            RETURN NULL;
        END IF;
    END;
    $fn$ LANGUAGE plpgsql;
  END IF;
END $$;
