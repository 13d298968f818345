-- aizk:requires functions/aizk_entity_merge_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_entity_merge_refs_update ON entity_merge;
CREATE TRIGGER aizk_entity_merge_refs_update BEFORE UPDATE OF merged_id, into_id ON entity_merge FOR EACH ROW WHEN ((row_security_active(('entity_merge'::regclass)::oid) AND ((new.merged_id IS DISTINCT FROM old.merged_id) OR (new.into_id IS DISTINCT FROM old.into_id)))) EXECUTE FUNCTION aizk_entity_merge_refs_visible();
