-- aizk:requires functions/aizk_claim_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_claim_refs_update ON claim;
CREATE TRIGGER aizk_claim_refs_update BEFORE UPDATE OF object_id, source_chunk_id, subject_id, superseded_by, ended_by ON claim FOR EACH ROW WHEN ((row_security_active(('claim'::regclass)::oid) AND ((new.object_id IS DISTINCT FROM old.object_id) OR (new.source_chunk_id IS DISTINCT FROM old.source_chunk_id) OR (new.subject_id IS DISTINCT FROM old.subject_id) OR (new.superseded_by IS DISTINCT FROM old.superseded_by) OR (new.ended_by IS DISTINCT FROM old.ended_by)))) EXECUTE FUNCTION aizk_claim_refs_visible();
