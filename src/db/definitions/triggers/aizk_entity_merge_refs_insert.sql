-- aizk:requires functions/aizk_entity_merge_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_entity_merge_refs_insert ON entity_merge;
CREATE TRIGGER aizk_entity_merge_refs_insert BEFORE INSERT ON entity_merge FOR EACH ROW WHEN (row_security_active(('entity_merge'::regclass)::oid)) EXECUTE FUNCTION aizk_entity_merge_refs_visible();
