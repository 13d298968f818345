-- aizk:requires functions/aizk_entrypoint_pause_changed
DROP TRIGGER IF EXISTS aizk_entrypoint_pause_changed ON aizk_entrypoint_pause;
CREATE TRIGGER aizk_entrypoint_pause_changed AFTER INSERT OR DELETE OR UPDATE ON aizk_entrypoint_pause FOR EACH ROW EXECUTE FUNCTION aizk_entrypoint_pause_changed();
