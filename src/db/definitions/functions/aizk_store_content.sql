-- The app role's only way to store content: the id is computed here from the bytes, and the
-- answer is the same whether they were stored before or not, so a tenant learns nothing about
-- other tenants' files. The transaction's possession of the bytes is noted in aizk_content_held.
CREATE OR REPLACE FUNCTION aizk_store_content(content bytea)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    id text := encode(sha256(content), 'hex');
BEGIN
    INSERT INTO public.aizk_content (content_id, bytes, byte_size)
    VALUES (id, content, octet_length(content))
    ON CONFLICT (content_id) DO NOTHING;
    DELETE FROM public.aizk_content_held h
     WHERE h.ctid = ANY(ARRAY(SELECT o.ctid FROM public.aizk_content_held o
                               WHERE o.xact < pg_snapshot_xmin(pg_current_snapshot()) FOR UPDATE SKIP LOCKED));
    INSERT INTO public.aizk_content_held (xact, content_id) VALUES (pg_current_xact_id(), id)
    ON CONFLICT DO NOTHING;
    RETURN id;
END $function$;
REVOKE ALL ON FUNCTION aizk_store_content(content bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_store_content(content bytea) TO {{app_role}};
