-- The app role reads only the bytes of an artifact it can see: the subquery runs under artifact's own row security.
DROP POLICY IF EXISTS rls_select ON aizk_content;
CREATE POLICY rls_select ON aizk_content FOR SELECT TO {{app_role}}
    USING (EXISTS (SELECT 1 FROM artifact a WHERE a.content_id = aizk_content.content_id));
