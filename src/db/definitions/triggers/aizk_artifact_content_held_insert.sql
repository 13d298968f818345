-- aizk:requires functions/aizk_artifact_content_held
DROP TRIGGER IF EXISTS aizk_artifact_content_held_insert ON artifact;
CREATE CONSTRAINT TRIGGER aizk_artifact_content_held_insert AFTER INSERT ON artifact DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (row_security_active(('artifact'::regclass)::oid)) EXECUTE FUNCTION aizk_artifact_content_held();
