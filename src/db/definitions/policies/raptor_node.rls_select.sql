-- aizk:requires functions/aizk_read_scopes
-- Generated from src/db/scoped-tables.ts by `npm run definitions`: change the list, not this file.
DROP POLICY IF EXISTS rls_select ON raptor_node;
CREATE POLICY rls_select ON raptor_node FOR SELECT TO {{app_role}} USING (scopes <@ (SELECT aizk_read_scopes()));
