-- aizk:requires functions/aizk_session_item_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_session_item_refs_update ON session_item;
CREATE TRIGGER aizk_session_item_refs_update BEFORE UPDATE OF document_id ON session_item FOR EACH ROW WHEN ((row_security_active(('session_item'::regclass)::oid) AND (new.document_id IS DISTINCT FROM old.document_id))) EXECUTE FUNCTION aizk_session_item_refs_visible();
