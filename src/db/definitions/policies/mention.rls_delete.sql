-- aizk:requires functions/aizk_write_scopes
DROP POLICY IF EXISTS rls_delete ON mention;
CREATE POLICY rls_delete ON mention FOR DELETE TO {{app_role}} USING (scopes = (SELECT aizk_write_scopes()));
