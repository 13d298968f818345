-- aizk:requires functions/aizk_profile_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_profile_refs_insert ON profile;
CREATE TRIGGER aizk_profile_refs_insert BEFORE INSERT ON profile FOR EACH ROW WHEN (row_security_active(('profile'::regclass)::oid)) EXECUTE FUNCTION aizk_profile_refs_visible();
