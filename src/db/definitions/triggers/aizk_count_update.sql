-- aizk:requires functions/aizk_count_update
-- Skipped by a statement that writes its own counts (aizk.own_counts on: aizk_complete, aizk_pick).
DROP TRIGGER IF EXISTS aizk_count_update ON pgqueuer;
CREATE TRIGGER aizk_count_update AFTER UPDATE ON pgqueuer REFERENCING OLD TABLE AS aizk_old NEW TABLE AS aizk_new FOR EACH STATEMENT WHEN (current_setting('aizk.own_counts', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION aizk_count_update();
