-- aizk:requires functions/aizk_artifact_content_held
DROP TRIGGER IF EXISTS aizk_artifact_content_held_update ON artifact;
CREATE CONSTRAINT TRIGGER aizk_artifact_content_held_update AFTER UPDATE OF content_id, storage ON artifact DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((row_security_active(('artifact'::regclass)::oid) AND ((new.content_id IS DISTINCT FROM old.content_id) OR (new.storage IS DISTINCT FROM old.storage)))) EXECUTE FUNCTION aizk_artifact_content_held();
