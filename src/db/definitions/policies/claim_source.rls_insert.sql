-- aizk:requires functions/aizk_write_scopes
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP POLICY IF EXISTS rls_insert ON claim_source;
CREATE POLICY rls_insert ON claim_source FOR INSERT TO {{app_role}} WITH CHECK (scopes = (SELECT aizk_write_scopes()));
