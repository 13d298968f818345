-- aizk:requires functions/aizk_touch_updated
DROP TRIGGER IF EXISTS artifact_touch_updated ON artifact;
CREATE TRIGGER artifact_touch_updated BEFORE UPDATE ON artifact FOR EACH ROW EXECUTE FUNCTION aizk_touch_updated();
