-- aizk:requires functions/aizk_entity_trend_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_entity_trend_refs_insert ON entity_trend;
CREATE TRIGGER aizk_entity_trend_refs_insert BEFORE INSERT ON entity_trend FOR EACH ROW WHEN (row_security_active(('entity_trend'::regclass)::oid)) EXECUTE FUNCTION aizk_entity_trend_refs_visible();
