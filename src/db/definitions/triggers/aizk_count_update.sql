-- aizk:requires functions/aizk_count_update
DROP TRIGGER IF EXISTS aizk_count_update ON pgqueuer;
CREATE TRIGGER aizk_count_update AFTER UPDATE ON pgqueuer REFERENCING OLD TABLE AS aizk_old NEW TABLE AS aizk_new FOR EACH STATEMENT EXECUTE FUNCTION aizk_count_update();
