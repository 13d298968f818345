-- aizk:requires functions/aizk_community_member_refs_visible
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP TRIGGER IF EXISTS aizk_community_member_refs_update ON community_member;
CREATE TRIGGER aizk_community_member_refs_update BEFORE UPDATE OF community_id, entity_id ON community_member FOR EACH ROW WHEN ((row_security_active(('community_member'::regclass)::oid) AND ((new.community_id IS DISTINCT FROM old.community_id) OR (new.entity_id IS DISTINCT FROM old.entity_id)))) EXECUTE FUNCTION aizk_community_member_refs_visible();
