-- aizk:requires functions/aizk_read_scopes
-- Chunks nearest a query vector, among the caller's chunks that have one (no vector index: the
-- scan is the reader's own embedded chunks). Same containment rule, same ids-only answer.
CREATE OR REPLACE FUNCTION aizk_recall_nearest_chunks(p_vector real[], p_limit int)
    RETURNS TABLE (id uuid, rank real)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT c.id, s.cosine::real
      FROM public.chunk c,
           LATERAL (SELECT sum(a * b) / nullif(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0) AS cosine
                      FROM unnest(c.embedding, p_vector) AS v(a, b)) AS s
     WHERE c.scopes <@ (SELECT public.aizk_read_scopes()) AND cardinality((SELECT public.aizk_read_scopes())) > 0 AND c.embedding IS NOT NULL
       AND cardinality(c.embedding) = cardinality(p_vector)
     ORDER BY s.cosine DESC NULLS LAST, c.id LIMIT p_limit
$$;
REVOKE ALL ON FUNCTION aizk_recall_nearest_chunks(real[], int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_recall_nearest_chunks(real[], int) TO {{app_role}};
