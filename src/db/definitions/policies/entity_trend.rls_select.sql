-- aizk:requires functions/aizk_read_scopes
DROP POLICY IF EXISTS rls_select ON entity_trend;
CREATE POLICY rls_select ON entity_trend FOR SELECT TO {{app_role}} USING (scopes <@ (SELECT aizk_read_scopes()));
