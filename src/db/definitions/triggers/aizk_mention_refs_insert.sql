-- aizk:requires functions/aizk_mention_refs_visible
DROP TRIGGER IF EXISTS aizk_mention_refs_insert ON mention;
CREATE TRIGGER aizk_mention_refs_insert BEFORE INSERT ON mention FOR EACH ROW WHEN (row_security_active(('mention'::regclass)::oid)) EXECUTE FUNCTION aizk_mention_refs_visible();
