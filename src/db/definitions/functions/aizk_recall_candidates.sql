-- aizk:requires functions/aizk_read_scopes
-- Recall's candidates: ids and ranks only, of rows within the caller's proven read set.
--
-- Why a SECURITY DEFINER function: under row security PostgreSQL applies a query's own conditions
-- only after the policy's, unless the operator is leakproof, and neither `@@` nor `%` is; so as
-- the app role the text condition can never reach the index and every search would read all of
-- the reader's rows. Here, as the owner, the same containment rule as the policies
-- (scopes <@ aizk_read_scopes(), which is empty without the owner's proof) is written into each
-- query, next to the text condition, and both ride the index. The function returns ids and ranks,
-- nothing else: recall then reads every row it shows as the app role, under row security.
-- Without a proven set the read set is empty, and `<@ '{}'` on a GIN index would scan all of it:
-- the cardinality test, a one-time filter, answers nothing before any scan starts.
CREATE OR REPLACE FUNCTION aizk_recall_candidates(p_query tsquery, p_lexemes text[], p_names text[], p_limit int)
    RETURNS TABLE (source text, id uuid, rank real)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    -- Chunks by how many of the question's words they hold, then by how close together.
    (SELECT 'chunk', c.id, (SELECT count(*) FROM unnest(tsvector_to_array(d.doc)) AS l WHERE l = ANY(p_lexemes)) + ts_rank_cd(d.doc, p_query, 32)
       FROM public.chunk c, LATERAL (SELECT to_tsvector('english', c.text) AS doc) AS d
      WHERE c.scopes <@ (SELECT public.aizk_read_scopes()) AND cardinality((SELECT public.aizk_read_scopes())) > 0 AND to_tsvector('english', c.text) @@ p_query
      ORDER BY 3 DESC, 2 LIMIT p_limit)
    UNION ALL
    (SELECT 'entity', coalesce(e.merged_into, e.id), ts_rank(to_tsvector('english', e.name), p_query)
       FROM public.entity e
      WHERE e.scopes <@ (SELECT public.aizk_read_scopes()) AND cardinality((SELECT public.aizk_read_scopes())) > 0 AND to_tsvector('english', e.name) @@ p_query
      ORDER BY 3 DESC, 2 LIMIT p_limit)
    UNION ALL
    (SELECT 'name', n.id, max(n.rank)
       FROM unnest(p_names) AS g(name),
            LATERAL (SELECT coalesce(e.merged_into, e.id) AS id, similarity(e.normalized_name, g.name) AS rank
                       FROM public.entity e
                      WHERE e.scopes <@ (SELECT public.aizk_read_scopes()) AND cardinality((SELECT public.aizk_read_scopes())) > 0 AND e.normalized_name % g.name
                      ORDER BY 2 DESC LIMIT p_limit) AS n
      GROUP BY n.id ORDER BY 3 DESC, 2 LIMIT p_limit)
    UNION ALL
    (SELECT 'profile', p.entity_id, ts_rank(to_tsvector('english', coalesce(p.summary, '')), p_query)
       FROM public.profile p
      WHERE p.scopes <@ (SELECT public.aizk_read_scopes()) AND cardinality((SELECT public.aizk_read_scopes())) > 0 AND to_tsvector('english', coalesce(p.summary, '')) @@ p_query
      ORDER BY 3 DESC, 2 LIMIT p_limit)
    UNION ALL
    (SELECT 'claim', c.id, ts_rank(to_tsvector('english', c.predicate || ' ' || coalesce(c.object_text, '')), p_query)
       FROM public.claim c
      WHERE c.subject_id IS NOT NULL AND c.scopes <@ (SELECT public.aizk_read_scopes()) AND cardinality((SELECT public.aizk_read_scopes())) > 0
        AND to_tsvector('english', c.predicate || ' ' || coalesce(c.object_text, '')) @@ p_query
      ORDER BY 3 DESC, 2 LIMIT p_limit)
    UNION ALL
    (SELECT 'community', m.id, ts_rank(to_tsvector('english', m.title || ' ' || m.summary), p_query)
       FROM public.community m
      WHERE m.scopes <@ (SELECT public.aizk_read_scopes()) AND cardinality((SELECT public.aizk_read_scopes())) > 0 AND to_tsvector('english', m.title || ' ' || m.summary) @@ p_query
      ORDER BY 3 DESC, 2 LIMIT p_limit)
$$;
REVOKE ALL ON FUNCTION aizk_recall_candidates(tsquery, text[], text[], int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION aizk_recall_candidates(tsquery, text[], text[], int) TO {{app_role}};
