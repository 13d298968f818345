-- aizk:requires functions/fn_pgqueuer_changed
-- PgQueuer's own trigger, created only where PgQueuer has not made it (see fn_pgqueuer_changed).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'tg_pgqueuer_changed' AND tgrelid = 'pgqueuer'::regclass) THEN
    CREATE TRIGGER tg_pgqueuer_changed
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pgqueuer
        EXECUTE FUNCTION fn_pgqueuer_changed();
  END IF;
END $$;
