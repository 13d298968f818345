-- aizk:requires functions/aizk_session_item_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_session_item_refs_insert ON session_item;
CREATE TRIGGER aizk_session_item_refs_insert BEFORE INSERT ON session_item FOR EACH ROW WHEN (row_security_active(('session_item'::regclass)::oid)) EXECUTE FUNCTION aizk_session_item_refs_visible();
