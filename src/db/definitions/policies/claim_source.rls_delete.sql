-- aizk:requires functions/aizk_write_scopes
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP POLICY IF EXISTS rls_delete ON claim_source;
CREATE POLICY rls_delete ON claim_source FOR DELETE TO {{app_role}} USING (scopes = (SELECT aizk_write_scopes()));
