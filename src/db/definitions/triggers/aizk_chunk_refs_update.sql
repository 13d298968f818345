-- aizk:requires functions/aizk_chunk_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_chunk_refs_update ON chunk;
CREATE TRIGGER aizk_chunk_refs_update BEFORE UPDATE OF artifact_id, document_id ON chunk FOR EACH ROW WHEN ((row_security_active(('chunk'::regclass)::oid) AND ((new.artifact_id IS DISTINCT FROM old.artifact_id) OR (new.document_id IS DISTINCT FROM old.document_id)))) EXECUTE FUNCTION aizk_chunk_refs_visible();
