-- aizk:requires functions/aizk_write_scopes
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP POLICY IF EXISTS rls_insert ON entity;
CREATE POLICY rls_insert ON entity FOR INSERT TO {{app_role}} WITH CHECK (scopes = (SELECT aizk_write_scopes()));
