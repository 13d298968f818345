-- The part-two tables (0010) were created with row-security policies that call
-- aizk_read_scopes() / aizk_write_scopes() once per row, and each call checks the scope proof
-- (two hashes). Over a rebuild's tens of thousands of community, member, insight and trend
-- rows that was most of the pass's database time. The same policies again, with the sets read
-- once per statement ((SELECT ...) is an init plan), as 0006 did for the tables before them.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['community', 'community_member', 'raptor_node', 'insight', 'insight_evidence', 'entity_trend'] LOOP
        EXECUTE format('DROP POLICY IF EXISTS rls_select ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_insert ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_update ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS rls_delete ON %I', t);
        EXECUTE format('CREATE POLICY rls_select ON %I FOR SELECT TO %s USING (scopes <@ (SELECT aizk_read_scopes()))',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_insert ON %I FOR INSERT TO %s WITH CHECK (scopes = (SELECT aizk_write_scopes()))',
                       t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_update ON %I FOR UPDATE TO %s USING (scopes <@ (SELECT aizk_read_scopes())) '
                       'WITH CHECK (scopes = (SELECT aizk_write_scopes()))', t, '{{app_role}}');
        EXECUTE format('CREATE POLICY rls_delete ON %I FOR DELETE TO %s USING (scopes = (SELECT aizk_write_scopes()))',
                       t, '{{app_role}}');
    END LOOP;
END $$;
