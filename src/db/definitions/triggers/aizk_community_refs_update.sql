-- aizk:requires functions/aizk_community_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_community_refs_update ON community;
CREATE TRIGGER aizk_community_refs_update BEFORE UPDATE OF parent_id ON community FOR EACH ROW WHEN ((row_security_active(('community'::regclass)::oid) AND (new.parent_id IS DISTINCT FROM old.parent_id))) EXECUTE FUNCTION aizk_community_refs_visible();
