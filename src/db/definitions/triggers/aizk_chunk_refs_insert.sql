-- aizk:requires functions/aizk_chunk_refs_visible
DROP TRIGGER IF EXISTS aizk_chunk_refs_insert ON chunk;
CREATE TRIGGER aizk_chunk_refs_insert BEFORE INSERT ON chunk FOR EACH ROW WHEN (row_security_active(('chunk'::regclass)::oid)) EXECUTE FUNCTION aizk_chunk_refs_visible();
