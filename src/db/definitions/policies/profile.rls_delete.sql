-- aizk:requires functions/aizk_write_scopes
DROP POLICY IF EXISTS rls_delete ON profile;
CREATE POLICY rls_delete ON profile FOR DELETE TO {{app_role}} USING (scopes = (SELECT aizk_write_scopes()));
