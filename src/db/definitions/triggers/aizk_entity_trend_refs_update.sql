-- aizk:requires functions/aizk_entity_trend_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_entity_trend_refs_update ON entity_trend;
CREATE TRIGGER aizk_entity_trend_refs_update BEFORE UPDATE OF entity_id ON entity_trend FOR EACH ROW WHEN ((row_security_active(('entity_trend'::regclass)::oid) AND (new.entity_id IS DISTINCT FROM old.entity_id))) EXECUTE FUNCTION aizk_entity_trend_refs_visible();
