-- aizk:requires functions/aizk_mention_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_mention_refs_update ON mention;
CREATE TRIGGER aizk_mention_refs_update BEFORE UPDATE OF chunk_id, entity_id ON mention FOR EACH ROW WHEN ((row_security_active(('mention'::regclass)::oid) AND ((new.chunk_id IS DISTINCT FROM old.chunk_id) OR (new.entity_id IS DISTINCT FROM old.entity_id)))) EXECUTE FUNCTION aizk_mention_refs_visible();
