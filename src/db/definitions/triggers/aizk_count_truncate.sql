-- aizk:requires functions/aizk_count_truncate
DROP TRIGGER IF EXISTS aizk_count_truncate ON pgqueuer;
CREATE TRIGGER aizk_count_truncate AFTER TRUNCATE ON pgqueuer FOR EACH STATEMENT EXECUTE FUNCTION aizk_count_truncate();
