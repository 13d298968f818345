-- aizk:requires functions/aizk_insight_evidence_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_insight_evidence_refs_insert ON insight_evidence;
CREATE TRIGGER aizk_insight_evidence_refs_insert BEFORE INSERT ON insight_evidence FOR EACH ROW WHEN (row_security_active(('insight_evidence'::regclass)::oid)) EXECUTE FUNCTION aizk_insight_evidence_refs_visible();
