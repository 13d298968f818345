-- aizk:requires functions/aizk_count_delete
DROP TRIGGER IF EXISTS aizk_count_delete ON pgqueuer;
CREATE TRIGGER aizk_count_delete AFTER DELETE ON pgqueuer REFERENCING OLD TABLE AS aizk_old FOR EACH STATEMENT EXECUTE FUNCTION aizk_count_delete();
