-- aizk:requires functions/aizk_profile_refs_visible
DROP TRIGGER IF EXISTS aizk_profile_refs_insert ON profile;
CREATE TRIGGER aizk_profile_refs_insert BEFORE INSERT ON profile FOR EACH ROW WHEN (row_security_active(('profile'::regclass)::oid)) EXECUTE FUNCTION aizk_profile_refs_visible();
