-- aizk:requires functions/aizk_mention_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_mention_refs_insert ON mention;
CREATE TRIGGER aizk_mention_refs_insert BEFORE INSERT ON mention FOR EACH ROW WHEN (row_security_active(('mention'::regclass)::oid)) EXECUTE FUNCTION aizk_mention_refs_visible();
