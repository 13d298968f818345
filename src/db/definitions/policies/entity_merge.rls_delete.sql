-- aizk:requires functions/aizk_write_scopes
DROP POLICY IF EXISTS rls_delete ON entity_merge;
CREATE POLICY rls_delete ON entity_merge FOR DELETE TO {{app_role}} USING (scopes = (SELECT aizk_write_scopes()));
