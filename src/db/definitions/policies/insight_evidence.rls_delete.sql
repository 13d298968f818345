-- aizk:requires functions/aizk_write_scopes
DROP POLICY IF EXISTS rls_delete ON insight_evidence;
CREATE POLICY rls_delete ON insight_evidence FOR DELETE TO {{app_role}} USING (scopes = (SELECT aizk_write_scopes()));
