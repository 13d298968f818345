-- aizk:requires functions/aizk_count_insert
DROP TRIGGER IF EXISTS aizk_count_insert ON pgqueuer;
CREATE TRIGGER aizk_count_insert AFTER INSERT ON pgqueuer REFERENCING NEW TABLE AS aizk_new FOR EACH STATEMENT EXECUTE FUNCTION aizk_count_insert();
