-- aizk:requires functions/aizk_community_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_community_refs_insert ON community;
CREATE TRIGGER aizk_community_refs_insert BEFORE INSERT ON community FOR EACH ROW WHEN (row_security_active(('community'::regclass)::oid)) EXECUTE FUNCTION aizk_community_refs_visible();
