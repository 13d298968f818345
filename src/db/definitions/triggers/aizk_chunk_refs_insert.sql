-- aizk:requires functions/aizk_chunk_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_chunk_refs_insert ON chunk;
CREATE TRIGGER aizk_chunk_refs_insert BEFORE INSERT ON chunk FOR EACH ROW WHEN (row_security_active(('chunk'::regclass)::oid)) EXECUTE FUNCTION aizk_chunk_refs_visible();
