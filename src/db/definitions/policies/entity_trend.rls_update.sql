-- aizk:requires functions/aizk_read_scopes
-- aizk:requires functions/aizk_write_scopes
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP POLICY IF EXISTS rls_update ON entity_trend;
CREATE POLICY rls_update ON entity_trend FOR UPDATE TO {{app_role}} USING (scopes <@ (SELECT aizk_read_scopes()))
    WITH CHECK (scopes = (SELECT aizk_write_scopes()));
