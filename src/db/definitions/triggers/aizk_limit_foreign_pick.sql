-- aizk:requires functions/aizk_limit_foreign_pick
DROP TRIGGER IF EXISTS aizk_limit_foreign_pick ON pgqueuer;
CREATE TRIGGER aizk_limit_foreign_pick BEFORE UPDATE OF status ON pgqueuer FOR EACH ROW WHEN (((new.status = 'picked'::pgqueuer_status) AND (old.status IS DISTINCT FROM 'picked'::pgqueuer_status) AND (current_setting('aizk.limit_exempt'::text, true) IS DISTINCT FROM (new.queue_manager_id)::text))) EXECUTE FUNCTION aizk_limit_foreign_pick();
