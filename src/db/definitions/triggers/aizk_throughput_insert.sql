-- aizk:requires functions/aizk_throughput_insert
DROP TRIGGER IF EXISTS aizk_throughput_insert ON pgqueuer_log;
CREATE TRIGGER aizk_throughput_insert AFTER INSERT ON pgqueuer_log REFERENCING NEW TABLE AS aizk_new FOR EACH STATEMENT EXECUTE FUNCTION aizk_throughput_insert();
