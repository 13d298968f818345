-- aizk:requires functions/aizk_insight_evidence_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_insight_evidence_refs_update ON insight_evidence;
CREATE TRIGGER aizk_insight_evidence_refs_update BEFORE UPDATE OF claim_id, insight_id ON insight_evidence FOR EACH ROW WHEN ((row_security_active(('insight_evidence'::regclass)::oid) AND ((new.claim_id IS DISTINCT FROM old.claim_id) OR (new.insight_id IS DISTINCT FROM old.insight_id)))) EXECUTE FUNCTION aizk_insight_evidence_refs_visible();
