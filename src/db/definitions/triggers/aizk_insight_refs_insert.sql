-- aizk:requires functions/aizk_insight_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_insight_refs_insert ON insight;
CREATE TRIGGER aizk_insight_refs_insert BEFORE INSERT ON insight FOR EACH ROW WHEN (row_security_active(('insight'::regclass)::oid)) EXECUTE FUNCTION aizk_insight_refs_visible();
