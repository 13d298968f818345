-- aizk:requires functions/aizk_profile_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_profile_refs_update ON profile;
CREATE TRIGGER aizk_profile_refs_update BEFORE UPDATE OF entity_id ON profile FOR EACH ROW WHEN ((row_security_active(('profile'::regclass)::oid) AND (new.entity_id IS DISTINCT FROM old.entity_id))) EXECUTE FUNCTION aizk_profile_refs_visible();
