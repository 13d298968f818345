-- aizk:requires functions/aizk_claim_source_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_claim_source_refs_insert ON claim_source;
CREATE TRIGGER aizk_claim_source_refs_insert BEFORE INSERT ON claim_source FOR EACH ROW WHEN (row_security_active(('claim_source'::regclass)::oid)) EXECUTE FUNCTION aizk_claim_source_refs_visible();
