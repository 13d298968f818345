-- aizk:requires functions/aizk_read_scopes
-- The app role reads the bytes its own sets stored (aizk reads them through aizk_read_content).
DROP POLICY IF EXISTS rls_select ON aizk_content;
CREATE POLICY rls_select ON aizk_content FOR SELECT TO {{app_role}}
    USING (scopes <@ (SELECT aizk_read_scopes()));
