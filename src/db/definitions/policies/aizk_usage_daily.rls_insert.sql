-- aizk:requires functions/aizk_write_scopes
DROP POLICY IF EXISTS rls_insert ON aizk_usage_daily;
CREATE POLICY rls_insert ON aizk_usage_daily FOR INSERT TO {{app_role}} WITH CHECK (scopes = (SELECT aizk_write_scopes()));
