-- aizk:requires functions/aizk_throughput_insert
-- Skipped by a statement that writes its own counts (aizk.own_counts on: aizk_complete, aizk_pick).
DROP TRIGGER IF EXISTS aizk_throughput_insert ON pgqueuer_log;
CREATE TRIGGER aizk_throughput_insert AFTER INSERT ON pgqueuer_log REFERENCING NEW TABLE AS aizk_new FOR EACH STATEMENT WHEN (current_setting('aizk.own_counts', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION aizk_throughput_insert();
