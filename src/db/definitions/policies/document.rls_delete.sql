-- aizk:requires functions/aizk_write_scopes
DROP POLICY IF EXISTS rls_delete ON document;
CREATE POLICY rls_delete ON document FOR DELETE TO {{app_role}} USING (scopes = (SELECT aizk_write_scopes()));
