-- aizk:requires functions/aizk_claim_source_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_claim_source_refs_update ON claim_source;
CREATE TRIGGER aizk_claim_source_refs_update BEFORE UPDATE OF chunk_id, claim_id ON claim_source FOR EACH ROW WHEN ((row_security_active(('claim_source'::regclass)::oid) AND ((new.chunk_id IS DISTINCT FROM old.chunk_id) OR (new.claim_id IS DISTINCT FROM old.claim_id)))) EXECUTE FUNCTION aizk_claim_source_refs_visible();
