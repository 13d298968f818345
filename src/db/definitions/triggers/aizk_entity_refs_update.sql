-- aizk:requires functions/aizk_entity_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_entity_refs_update ON entity;
CREATE TRIGGER aizk_entity_refs_update BEFORE UPDATE OF merged_into ON entity FOR EACH ROW WHEN ((row_security_active(('entity'::regclass)::oid) AND (new.merged_into IS DISTINCT FROM old.merged_into))) EXECUTE FUNCTION aizk_entity_refs_visible();
